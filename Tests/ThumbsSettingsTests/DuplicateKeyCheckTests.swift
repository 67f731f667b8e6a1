import Foundation
import Testing
@testable import ThumbsSettings

/// A key written twice in one JSON object is found at any depth and named by its path; whatever
/// else a document holds, valid or not, the check never throws.
@Suite struct DuplicateKeyCheckTests {
    /// The path of the duplicate `json` holds, as the configuration's errors write it, or nil.
    private func duplicate(_ json: String) throws -> String? {
        do {
            try DuplicateKeyCheck.check(Data(json.utf8))
            return nil
        } catch DecodingError.dataCorrupted(let context) {
            return context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
    }

    @Test func aDuplicateIsNamedByItsPathAtAnyDepth() throws {
        #expect(try duplicate(#"{"workers": 3, "workers": 300}"#) == ".workers")
        #expect(try duplicate(#"{"serve": {"port": 1, "host": "a", "port": 2}}"#) == ".serve.port")
        #expect(
            try duplicate(#"{"renditions": [{"name": "a"}, {"size": "1x1", "name": "b", "size": "2x2"}]}"#)
                == ".renditions[1].size")
        #expect(try duplicate(#"[[], [{"a": {"b": [0, {"c": 1, "c": 1}]}}]]"#) == "[1][0].a.b[1].c")
    }

    /// Keys are compared as the decoder reads them: after their escapes.
    @Test func keysAreComparedUnescaped() throws {
        #expect(try duplicate(#"{"workers": 1, "w\u006Frkers": 2}"#) == ".workers")
        #expect(try duplicate(#"{"a\"b": 1, "a\u0022b": 2}"#) == #".a"b"#)
        #expect(try duplicate(#"{"\ud83d\ude00": 1, "😀": 2}"#) == ".😀")
        #expect(try duplicate(#"{"a\\": 1, "a\\\\": 2}"#) == nil)
        #expect(try duplicate(#"{"a\/b": 1, "a/b": 2}"#) == ".a/b")
    }

    /// Equal keys in different objects, and strings that look like keys, are not duplicates.
    @Test func keysOfDifferentObjectsAndValuesAreNotDuplicates() throws {
        #expect(try duplicate(#"{"a": {"x": 1}, "b": {"x": 1}, "c": [{"x": 1}, {"x": 2}]}"#) == nil)
        #expect(try duplicate(#"{"a": "a", "b": ["a", "a"], "c": "{\"a\": 1, \"a\": 2}"}"#) == nil)
        #expect(try duplicate(#" { } "#) == nil)
        #expect(try duplicate(#"{"a": [], "b": {}, "c": -1.5e3, "d": true, "e": null}"#) == nil)
    }

    /// What is not JSON is left to the decoder: no throw, no crash, whatever the bytes.
    @Test func malformedDocumentsAreLeftToTheDecoder() throws {
        for json in [
            "", "{", "}", "]", #"{"a""#, #"{"a":"#, #"{"a" 1}"#, #"{"a": 1,}"#, #"{"a\q": 1}"#, #"{"\u12": 1}"#,
            #"{"a": 1 "a": 2}"#, #"[1,]"#, #"{1: 2}"#, String(repeating: "[", count: 100_000),
            String(repeating: #"{"a":"#, count: 100_000),
        ] {
            #expect(try duplicate(json) == nil, "\(json.prefix(20))")
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let bytes = (0..<Int.random(in: 0..<64, using: &generator)).map { _ in
                Array(#"{}[]":,\u0a1 "#.utf8).randomElement(using: &generator)!
            }
            _ = try? DuplicateKeyCheck.check(Data(bytes))
        }
    }

}
