import ThumbsCore

extension MediaSubtypes {
    /// What an XMP packet marks: a panorama (Google's Photo Sphere `GPano:ProjectionType`, or
    /// `GPano:UsePanoramaViewer`), a depth map (Google's `GDepth`, or a Dynamic Depth
    /// `DepthMap`), a gain map (Adobe's and Ultra HDR's `hdrgm:Version`, Apple's
    /// `HDRGainMap:HDRGainMapVersion`, a "GainMap" item of Google's container).
    package init(xmp: XMPPacket) {
        self = []
        let panoramaProjection = xmp.value(of: "ProjectionType", in: Namespace.gPano, conventionally: "GPano")
        let panoramaViewer = xmp.value(of: "UsePanoramaViewer", in: Namespace.gPano, conventionally: "GPano")
        if !(panoramaProjection ?? "").isEmpty || panoramaViewer?.lowercased() == "true" {
            insert(.photoPanorama)
        }
        if ["Format", "Mime", "Data"].contains(where: {
            xmp.value(of: $0, in: Namespace.gDepth, conventionally: "GDepth") != nil
        }) || xmp.binds(Namespace.dynamicDepthMap) {
            insert(.photoDepthEffect)
        }
        if xmp.value(of: "Version", in: Namespace.gainMap, conventionally: "hdrgm") != nil
            || xmp.value(of: "HDRGainMapVersion", in: Namespace.appleGainMap, conventionally: "HDRGainMap") != nil
            || xmp.hasDirectoryItem(semantic: "GainMap")
        {
            insert(.photoHDR)
        }
    }

    /// What a HEIF file's items say: a depth map or a portrait matte among its auxiliary
    /// pictures, a gain map (Apple's and Google's auxiliary `hdrgainmap`, an ISO 21496-1 `tmap`
    /// item), a primary picture of PQ or HLG transfer.
    package init(heif meta: HEIFMetaBox) {
        self = []
        if meta.auxiliaryTypes.contains(where: Self.isDepthOrMatte) { insert(.photoDepthEffect) }
        if meta.auxiliaryTypes.contains(where: { $0.hasSuffix(":hdrgainmap") }) || meta.itemTypes.contains("tmap")
            || [16, 18].contains(meta.primaryTransferCharacteristics)
        {
            insert(.photoHDR)
        }
    }

    /// What a JPEG's header segments say: ISO 21496-1 gain-map metadata (APP2) makes it HDR.
    package init(jpeg segments: JPEGSegments) {
        self = segments.hasGainMapMetadata ? .photoHDR : []
    }

    /// Whether an auxiliary picture of type `type` is a depth map (MPEG's types, or one of
    /// Apple's own ending in "depth") or a portrait's matte (Apple's portrait effects matte and
    /// its semantic segmentation mattes).
    static func isDepthOrMatte(_ type: String) -> Bool {
        type == "urn:mpeg:hevc:2015:auxid:2" || type == "urn:mpeg:mpegB:cicp:systems:auxiliary:depth"
            || (type.hasPrefix("urn:com:apple:photo:") && (type.hasSuffix("matte") || type.hasSuffix(":depth")))
    }

    /// The namespaces of the XMP properties read here.
    enum Namespace {
        static let gPano = "http://ns.google.com/photos/1.0/panorama/"
        static let gDepth = "http://ns.google.com/photos/1.0/depthmap/"
        static let dynamicDepthMap = "http://ns.google.com/photos/dd/1.0/depthmap/"
        static let gainMap = "http://ns.adobe.com/hdr-gain-map/1.0/"
        static let appleGainMap = "http://ns.apple.com/HDRGainMap/1.0/"
    }
}
