/// How a rendition shows an HDR picture (a PQ or HLG picture, or one with a gain map).
public enum HDRRendering: String, Sendable, Hashable, Codable, CaseIterable {
    /// Tone-mapped to SDR: one picture, the same on every screen.
    case sdr
    /// An Ultra HDR JPEG: the SDR picture, and a gain map beside it that a viewer on an HDR
    /// screen applies to show the HDR picture (Google's Ultra HDR format 1.0, which Chromium,
    /// Android and Apple's platforms display). Only a JPEG rendition carries one; an SDR source's
    /// rendition has none.
    case gainMap = "gainmap"
}
