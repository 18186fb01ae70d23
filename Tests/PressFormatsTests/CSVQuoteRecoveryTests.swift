// An unterminated CSV quote swallowed the rest of the file. RFC 4180 lets a
// quoted field run over line breaks, so the reader gathers lines while a quote is open; when the
// quote is still open at the end of the input, or after `CSVReader.maximumQuotedLines` lines or
// `maximumQuotedBytes` bytes, only the row where it opened is rejected and reading resumes at the
// line after it.
import Testing
import PressCore
@testable import PressFormats

@Suite struct CSVQuoteRecoveryTests {
    /// The reported reproduction: header `session,t,phase,x,y,control`, row 2 `c0,0,began,1,1,"oops`,
    /// then 1,000 valid sessions of two rows each. Before the fix: one 2,001-row reject, nothing
    /// else. Now: exactly one reject (line 2, its own text) and all 2,000 records.
    @Test func theReportedReproductionKeepsEveryValidSession() throws {
        var text = "session,t,phase,x,y,control\nc0,0,began,1,1,\"oops\n"
        for k in 1...1000 { text += "s\(k),\(k),began,1,1,\ns\(k),\(k).5,ended,1,1,\n" }
        let items = try readCSV(text)
        let rejects = items.compactMap { if case .reject(let r) = $0 { return r }; return nil }
        let touches = items.compactMap { if case .touch(let r) = $0 { return r }; return nil }
        #expect(rejects.count == 1)
        #expect(rejects.first?.source.line == 2)
        #expect(rejects.first?.raw == "c0,0,began,1,1,\"oops")
        #expect(rejects.first?.reason.contains("not closed") == true)
        #expect(touches.count == 2000)
        #expect(Set(touches.map(\.session)).count == 1000)
        // Line numbers of the resumed rows are their own: s1's began is line 3, s1000's ended 2002.
        #expect(touches.first?.source.line == 3 && touches.last?.source.line == 2002)
    }

    /// A quote that closes on a later line is one row spanning those lines, as RFC 4180 §2.6 says.
    @Test func aQuoteClosedOnALaterLineIsOneRow() throws {
        let items = try readCSV("session,t,phase,x,y,note\na,0,began,1,1,\"two\nlines\"\na,1,ended,1,1,\n")
        #expect(items.count == 2)
        guard case .touch(let r) = items.first else { Issue.record("\(items)"); return }
        #expect(r.attributes.extra == #"{"note":"two\nlines"}"#)
        #expect(r.source.line == 2)
    }

    /// The span limit: a quote still open after `maximumQuotedLines` lines is given up on even
    /// though a quote 100 lines further down would close it; the lines in between are read as rows.
    @Test func aQuoteOpenForTooManyLinesIsGivenUp() throws {
        let limit = CSVReader.maximumQuotedLines
        var text = "session,t,phase,x,y,note\na,0,began,1,1,\"long\n"
        for k in 1...(limit + 100) { text += "b\(k),\(k),began,1,1,\n" }
        text += "closing\",1,began,1,1,\n"
        let items = try readCSV(text)
        let rejects = items.compactMap { if case .reject(let r) = $0 { return r }; return nil }
        #expect(rejects.first?.source.line == 2)
        #expect(rejects.first?.reason.contains("within \(limit) lines") == true)
        // Every b row is read; the last line (an unquoted cell holding a quote) is a record too.
        let sessions = items.compactMap { if case .touch(let r) = $0 { return r.session }; return nil }
        #expect(sessions.filter { $0.hasPrefix("b") }.count == limit + 100)
        #expect(rejects.count == 1)
    }

    /// An unclosed quote that a later row's quote "closes" makes a malformed multi-line row
    /// (text after the closing quote): the row where the quote opened is rejected alone and the
    /// lines after it are read again, so b is kept; c's own quote is unclosed at the end.
    @Test func aMalformedMultiLineRowRejectsOnlyItsFirstLine() throws {
        let items = try readCSV("session,t,phase,x,y,note\na,0,began,1,1,\"one\nb,0,began,1,1,\nc,0,began,1,1,\"two\n")
        #expect(items.count == 3)
        guard items.count == 3, case .reject(let a) = items[0], case .touch(let b) = items[1], case .reject(let c) = items[2] else {
            Issue.record("\(items)"); return
        }
        #expect(a.source.line == 2 && a.raw == "a,0,began,1,1,\"one")
        #expect(a.reason.contains("text after a closing quote"))
        #expect(b.session == "b" && b.source.line == 3)
        #expect(c.source.line == 4 && c.reason.contains("end of the input"))
    }
}
