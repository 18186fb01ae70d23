// A truncated configuration file said "The operation could not be completed"
// (Foundation's text for any JSONSerialization failure) with no line or column. Now the message
// says what is wrong and where, in lines and columns of the file (both 1-based, columns in
// bytes), counted here by hand from the texts below.
import Foundation
import Testing
@testable import PressFormats

@Suite struct JSONDocumentErrorTests {
    @Test func aTruncatedConfigurationNamesTheLineAndColumn() {
        // Three lines; the text ends after `"base": ` on line 3 (10 bytes: two spaces, `"base":`,
        // a space), so the value is missing at line 3, column 11.
        let text = "{\n  \"name\": \"soft\",\n  \"base\": "
        do {
            _ = try ConfigurationJSON.parseFile(text)
            Issue.record("no error")
        } catch let e as ConfigurationJSONError {
            #expect(!e.message.contains("could not be completed"), "\(e.message)")
            #expect(e.message == "not valid JSON: expected a value at line 3, column 11 (the end of the text)", "\(e.message)")
        } catch { Issue.record("\(error)") }
    }

    /// A NaN (or Infinity) in a configuration said only "not valid JSON". Line 2 is
    /// ` "base":"spring-press","pressed_scale":NaN}`: a space, `"base":` (7 bytes),
    /// `"spring-press",` (15), `"pressed_scale":` (16), so NaN starts at column 1+7+15+16+1 = 40;
    /// "-Infinity" after a string holding "NaN" is found past the string: `{"name":"NaN",` (14
    /// bytes), `"base":"spring-press",` (22), `"pressed_scale":` (16), so column 53.
    @Test func aNonFiniteNumberNamesTheLineAndColumn() {
        for (text, expected) in [
            ("{\"type\":\"config\",\"name\":\"n\",\n \"base\":\"spring-press\",\"pressed_scale\":NaN}", "NaN is not a JSON number (write a finite number) at line 2, column 40"),
            ("{\"name\":\"NaN\",\"base\":\"spring-press\",\"pressed_scale\":-Infinity}", "-Infinity is not a JSON number (write a finite number) at line 1, column 53"),
        ] {
            do {
                _ = try ConfigurationJSON.parseFile(text)
                Issue.record("no error")
            } catch let e as ConfigurationJSONError {
                #expect(e.message == "not valid JSON: \(expected)", "\(e.message)")
            } catch { Issue.record("\(error)") }
        }
    }

    @Test func anUnclosedObjectNamesWhereItOpened() {
        // `[` at line 1 column 1, `{` at line 2 column 3; the text ends after `1` at line 2, column 13.
        let text = "[\n  {\"name\": 1"
        #expect(message(text) == "not valid JSON: unterminated object (opened at line 2, column 3) at line 2, column 13 (the end of the text)")
        // A missing colon: `1` at line 1, column 6.
        #expect(message(#"{"a" 1}"#) == "not valid JSON: expected ':' after a field name at line 1, column 6")
        // Text after the document: `x` at line 2, column 1.
        #expect(message("{}\nx") == "not valid JSON: unexpected text after the document at line 2, column 1")
    }

    /// The same for a layout file cut short: `[` opens at line 1, column 14 of
    /// `{"controls": [`, and the text ends at line 3, column 1 (after the newline of line 2).
    @Test func aTruncatedLayoutNamesTheLineAndColumn() {
        let text = "{\"controls\": [\n  {\"id\": \"a\", \"frame\": [0, 0, 10, 10]}\n"
        #expect(throws: LayoutError("l.json: not valid JSON: unterminated array (opened at line 1, column 14) at line 3, column 1 (the end of the text)")) {
            try LayoutJSON.parse(Data(text.utf8), file: "l.json")
        }
        // One control record per line still reads line by line, naming the line.
        #expect(throws: LayoutError("l.ndjson:2: not a JSON object")) {
            try LayoutJSON.parse(Data("{\"type\":\"control\",\"id\":\"a\",\"frame\":[0,0,1,1]}\n{\"type\":".utf8), file: "l.ndjson")
        }
    }

    private func message(_ text: String) -> String? {
        do { _ = try ConfigurationJSON.parseFile(text); return nil } catch let e as ConfigurationJSONError { return e.message } catch { return "\(error)" }
    }
}
