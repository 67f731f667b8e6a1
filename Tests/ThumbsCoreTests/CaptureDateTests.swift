import Foundation
import Testing
import ThumbsCore

@Suite struct CaptureDateTests {
    @Test func parsesExifDateAndOffset() throws {
        let date = try #require(CaptureDate(exif: "2022:02:16 12:55:41", offset: "+01:00"))
        #expect(date.description == "2022-02-16T12:55:41+01:00")
        #expect(date.date()?.timeIntervalSince1970 == 1_645_012_541)
    }

    @Test func keepsLocalTimeWithoutOffset() throws {
        let date = try #require(CaptureDate(exif: "2007:12:26 10:11:12"))
        #expect(date.utcOffsetSeconds == nil)
        #expect(date.description == "2007-12-26T10:11:12")
        #expect(date.date(fallback: TimeZone(secondsFromGMT: 0)!)?.timeIntervalSince1970 == 1_198_663_872)
    }

    @Test func negativeOffsets() throws {
        let date = try #require(CaptureDate(exif: "2024:01:12 21:38:53", offset: "-08:00"))
        #expect(date.utcOffsetSeconds == -28_800)
        #expect(date.description.hasSuffix("-08:00"))
    }

    @Test func codesAsAnISOString() throws {
        for date in [
            CaptureDate(exif: "2024:01:12 21:38:53", offset: "-08:00"), CaptureDate(exif: "2007:12:26 10:11:12"),
        ] {
            let encoded = try JSONEncoder().encode(try #require(date))
            #expect(try JSONDecoder().decode(CaptureDate.self, from: encoded) == date)
        }
        #expect(
            String(
                decoding: try JSONEncoder().encode(CaptureDate(exif: "2024:01:12 21:38:53", offset: "-08:00")),
                as: UTF8.self)
                == #""2024-01-12T21:38:53-08:00""#)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(CaptureDate.self, from: Data(#""yesterday""#.utf8))
        }
    }

    @Test func rejectsUnsetClocks() {
        #expect(CaptureDate(exif: "0000:00:00 00:00:00") == nil)
        #expect(CaptureDate(exif: "    :  :     :  :  ") == nil)
        #expect(CaptureDate(exif: "2020:13:01 00:00:00") == nil)
    }

    @Test func everyYearItAcceptsReadsBackFromItsDescription() throws {
        for (exif, description) in [
            ("10:10:06 19:25:15", "0010-10-06T19:25:15+02:00"), ("999:01:02 03:04:05", "0999-01-02T03:04:05+02:00"),
            ("9999:12:31 23:59:60", "9999-12-31T23:59:60+02:00"),
        ] {
            let date = try #require(CaptureDate(exif: exif, offset: "+02:00"))
            #expect(date.description == description)
            #expect(CaptureDate(parsing: date.description) == date)
        }
        #expect(CaptureDate(exif: "10000:01:01 00:00:00") == nil)
    }

    /// The metadata cache's own form is read from its bytes; whatever the text, the values are
    /// those EXIF's parsing of the same parts gives.
    @Test func theFixedFormReadsAsEXIFsParsingWould() {
        let texts = [
            "2022-02-16T12:55:41", "2022-02-16T12:55:41+01:00", "2022-02-16T12:55:41-09:30",
            "0987-01-01T00:00:60", "2022-13-16T12:55:41", "2022-02-00T12:55:41", "2022-02-16T24:00:00",
            "2022-02-16T12:55:41+15:00", "2022-02-16T12:55:41+01:60", "2022-02-16 12:55:41",
            "2022-02-16T12:55:4x", "2022-02-16T12:55:41+0100", "2022-02-16T12:55:41Z", "0000-01-01T00:00:00",
            "٢٠٢٢-02-16T12:55:41",
        ]
        for text in texts {
            let offset = text.count > 19 ? String(text.dropFirst(19)) : nil
            let reference = CaptureDate(exif: String(text.prefix(19)), offset: offset)
            let expected = offset != nil && reference?.utcOffsetSeconds == nil ? nil : reference
            #expect(CaptureDate(parsing: text) == expected, "\(text)")
        }
    }
}
