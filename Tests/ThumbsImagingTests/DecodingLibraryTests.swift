import CVips
import Testing
import ThumbsCore
import ThumbsImaging

/// The decoding libraries, opened on first use through CLibraryLoader's trampolines.
@Suite struct DecodingLibraryTests {
    @Test(arguments: DecodingLibrary.allCases)
    func opensOnceAndStaysOpen(library: DecodingLibrary) throws {
        try library.open()
        try library.open()
        #expect(library.isOpen)
        // libjxl is reached only through libvips' module, built against nothing of Thumbs'.
        #expect(library.headerVersion.isEmpty == (library == .libjxl))
    }

    /// The trampolines reach the library the headers describe: libvips says the version its
    /// headers name, and its modules' folder is found beside it.
    @Test func libvipsIsTheOneItsHeadersDescribe() throws {
        try VipsRuntime.ensureStarted()
        #expect(String(cString: vips_version_string()) == DecodingLibrary.libvips.headerVersion)
        #expect(vips_version(0) == VIPS_MAJOR_VERSION && vips_version(1) == VIPS_MINOR_VERSION)
    }

    /// libvips' HEIF loader is a module, loaded with libheif when a HEIF file first needs it.
    @Test func heifStartLoadsLibvipsHeifLoader() throws {
        try HeifRuntime.ensureStarted()
        #expect(DecodingLibrary.libheif.isOpen)
        #expect(vips_type_find("VipsForeignLoad", "heifload_source") != 0)
    }
}
