import Foundation
import Testing
@testable import PressCore
@testable import PressFormats

/// The brief's example session: began at 12.034 s at (187.5, 402.0), a move, a lift.
private let exampleSession = SyntheticSession(
    id: "u42-0007",
    attributes: SessionAttributes(config: "spring-press", variant: "A", control: "buy",
                                  frame: Rect(x: 160, y: 380, width: 88, height: 44), container: .scroll,
                                  scrollAxis: .vertical, text: [.user: "u42", .screen: "feed", .appVersion: "3.2.0"]),
    arm: 0, behavior: .tap,
    samples: [SyntheticSample(microseconds: 12_034_000, xHundredths: 18750, yHundredths: 40200, phase: .began),
              SyntheticSample(microseconds: 12_051_000, xHundredths: 18790, yHundredths: 40160, phase: .moved),
              SyntheticSample(microseconds: 12_120_500, xHundredths: 18790, yHundredths: 40160, phase: .ended)])

private func written(_ format: TouchLogFormat, _ body: (inout TouchLogWriter) -> Void) -> String {
    var w = TouchLogWriter(format: format)
    body(&w)
    return String(decoding: w.buffer, as: UTF8.self)
}

/// Splits one CSV line per RFC 4180 (quoted fields, doubled quotes).
private func csvFields(_ line: Substring) -> [String] {
    var fields: [String] = [], field = "", quoted = false, i = line.startIndex
    while i < line.endIndex {
        let c = line[i]
        if quoted {
            if c == "\"" {
                let n = line.index(after: i)
                if n < line.endIndex && line[n] == "\"" { field.append("\""); i = n } else { quoted = false }
            } else { field.append(c) }
        } else if c == "\"" { quoted = true }
        else if c == "," { fields.append(field); field = "" }
        else { field.append(c) }
        i = line.index(after: i)
    }
    fields.append(field)
    return fields
}

/// The text of the number after `"key":` in a one-line JSON object.
private func jsonNumber(_ line: String, _ key: String) -> String? {
    guard let r = line.range(of: "\"\(key)\":") else { return nil }
    return String(line[r.upperBound...].prefix { $0 != "," && $0 != "}" })
}

@Suite struct TouchLogWriterTests {
    // The record format in the brief, character for character.
    @Test func ndjsonMatchesTheDocumentedFormat() {
        let text = written(.ndjson) { w in for i in 0..<3 { w.append(exampleSession, sample: i) } }
        #expect(text == """
            {"session":"u42-0007","t":12.034,"phase":"began","x":187.5,"y":402.0,"config":"spring-press","variant":"A","control":"buy","frame":[160,380,88,44],"container":"scroll","scroll_axis":"vertical","user":"u42","screen":"feed","app_version":"3.2.0"}
            {"session":"u42-0007","t":12.051,"phase":"moved","x":187.9,"y":401.6}
            {"session":"u42-0007","t":12.1205,"phase":"ended","x":187.9,"y":401.6}

            """)
    }

    @Test func csvMatchesTheDocumentedHeaderAndRows() {
        let text = written(.csv) { w in w.writeHeader(); for i in 0..<2 { w.append(exampleSession, sample: i) } }
        #expect(text == """
            session,t,phase,x,y,config,variant,control,frame_x,frame_y,frame_w,frame_h,container,scroll_axis,user,screen,app_version
            u42-0007,12.034,began,187.5,402.0,spring-press,A,buy,160,380,88,44,scroll,vertical,u42,feed,3.2.0
            u42-0007,12.051,moved,187.9,401.6,,,,,,,,,,,,

            """)
        // 17 columns on every row.
        #expect(text.split(separator: "\n").allSatisfy { csvFields($0).count == 17 })
    }

    @Test func csvQuotesPerRFC4180AndJSONEscapes() {
        var s = exampleSession
        s.attributes.config = "my \"fast\", spring"
        s.attributes.variant = "line\nbreak\\"
        let csv = written(.csv) { $0.append(s, sample: 0) }
        #expect(csv.contains(",\"my \"\"fast\"\", spring\",\"line\nbreak\\\",buy,"))
        let json = written(.ndjson) { $0.append(s, sample: 0) }
        let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect(object?["config"] as? String == "my \"fast\", spring")
        #expect(object?["variant"] as? String == "line\nbreak\\")
    }

    // Fixed-point decimals written by hand: value / 10^decimals, trailing zeros dropped, at least
    // one decimal.
    @Test func fixedPointText() {
        let cases: [(Int, Int, String)] = [
            (12_034_000, 6, "12.034"), (12_000_000, 6, "12.0"), (5, 6, "0.000005"), (1_000_050, 6, "1.00005"),
            (40200, 2, "402.0"), (18753, 2, "187.53"), (-5, 2, "-0.05"), (-1250, 2, "-12.5"), (0, 2, "0.0"),
            (123_456_789_012, 6, "123456.789012"),
        ]
        for (v, d, text) in cases {
            #expect(written(.ndjson) { $0.fixed(v, decimals: d) } == text)
        }
    }

    // The claim behind fixed point: the decimal text parses to exactly the Double the sample
    // reports (both are the correctly rounded value of the same decimal).
    @Test func fixedPointRoundTripsExactly() {
        var g = SplitMix64(seed: 99)
        for _ in 0..<20_000 {
            let us = Int(g.next() % 10_000_000_000_000)
            let centi = Int(g.next() % 200_000) - 100_000
            let s = SyntheticSample(microseconds: us, xHundredths: centi, yHundredths: 0, phase: .moved)
            let t = written(.ndjson) { $0.fixed(us, decimals: 6) }
            let x = written(.ndjson) { $0.fixed(centi, decimals: 2) }
            #expect(Double(t) == s.t)
            #expect(Double(x) == s.x)
        }
    }

    @Test func touchRecordsRoundTripWithShortestDoubles() throws {
        let sample = TouchSample(t: 0.1 + 0.2, x: 187.5, y: -3, phase: .began)
        let attributes = SessionAttributes(config: "c,1", variant: "B", frame: Rect(x: 1.5, y: 2, width: 44, height: 44),
                                           container: .table, scrollAxis: .vertical,
                                           text: [.user: "u1", .device: "iPhone15,2", .appVersion: "1.0", .screen: "s"],
                                           extraFields: [ExtraField(key: "k", json: "1")])
        let record = TouchRecord(session: "s\"1", sample: sample, attributes: attributes, source: SourceLocation(file: "-", line: 1))
        let json = written(.ndjson) { $0.append(record) }
        // 0.1 + 0.2 = 0.30000000000000004 in binary64; its shortest round-trip text is those 17 digits.
        #expect(json.contains("\"t\":0.30000000000000004"))
        let o = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(o["session"] as? String == "s\"1")
        // (Foundation's JSONSerialization on Linux parses long decimals inexactly, so numbers are
        // read from their text with Swift's exact `Double(_:)`.)
        #expect(jsonNumber(json, "t").flatMap(Double.init) == 0.1 + 0.2)
        #expect((o["y"] as? NSNumber)?.doubleValue == -3)
        #expect(o["container"] as? String == "table")
        #expect(o["device"] as? String == "iPhone15,2")
        #expect((o["k"] as? NSNumber)?.intValue == 1)
        #expect((o["frame"] as? [NSNumber])?.map(\.doubleValue) == [1.5, 2, 44, 44])

        let csv = written(.csv) { $0.append(record) }
        let f = csvFields(csv.dropLast())
        #expect(f.count == 17)
        #expect(f[0] == "s\"1" && Double(f[1]) == 0.1 + 0.2 && f[5] == "c,1" && f[8] == "1.5" && f[12] == "table")
        var bare = record
        bare.attributes = SessionAttributes()
        #expect(written(.csv) { $0.append(bare) } == "\"s\"\"1\",0.30000000000000004,began,187.5,-3,,,,,,,,,,,,\n")
    }

    // NDJSON and CSV of the same log carry the same samples and the same began attributes.
    @Test func ndjsonAndCSVCarryTheSameSamples() throws {
        let log = try SyntheticLog(SyntheticLogConfiguration(sessions: 400, seed: 7))
        var nd = TouchLogWriter(format: .ndjson), csv = TouchLogWriter(format: .csv)
        csv.writeHeader()
        log.forEachRecord { s, i in nd.append(s, sample: i); csv.append(s, sample: i) }
        let jsonLines = String(decoding: nd.buffer, as: UTF8.self).split(separator: "\n")
        let csvLines = String(decoding: csv.buffer, as: UTF8.self).split(separator: "\n")
        #expect(csvLines.count == jsonLines.count + 1)
        let header = csvFields(csvLines[0])
        var began = 0
        for (j, c) in zip(jsonLines, csvLines.dropFirst()) {
            let o = try #require(try JSONSerialization.jsonObject(with: Data(j.utf8)) as? [String: Any])
            let row = Dictionary(uniqueKeysWithValues: zip(header, csvFields(c)))
            #expect(o["session"] as? String == row["session"])
            #expect(o["phase"] as? String == row["phase"])
            for k in ["t", "x", "y"] {
                #expect(jsonNumber(String(j), k).flatMap(Double.init) == Double(row[k]!))
            }
            if o["phase"] as? String == "began" {
                began += 1
                for k in ["config", "variant", "control", "container", "user", "screen", "app_version"] {
                    #expect(o[k] as? String == row[k])
                }
                #expect((o["scroll_axis"] as? String ?? "") == row["scroll_axis"])
                let frame = (o["frame"] as? [NSNumber])?.map(\.doubleValue)
                #expect(frame == ["frame_x", "frame_y", "frame_w", "frame_h"].map { Double(row[$0]!)! })
            }
        }
        #expect(began == 400)
    }
}

@Suite struct TouchLogWriterRoundTripTests {
    /// Reads `text` back with the reader of `format`.
    func read(_ text: String, _ format: TouchLogFormat) throws -> [TouchRecord] {
        let input = ByteInput(text: text, name: "w")
        var source: any RecordSource = format == .csv ? CSVReader(input) : NDJSONReader(input)
        var out: [TouchRecord] = []
        while let item = try source.next() {
            guard case .touch(let r) = item else { Issue.record("not a touch record: \(item)"); continue }
            out.append(r)
        }
        return out
    }

    // What the writer once dropped: a custom container (written as its name only, which it
    // has none of) and the sign of −0 (written as 0). Both formats read back the same values.
    @Test func customContainersAndNegativeZeroSurviveBothFormats() throws {
        let custom = Container(name: nil, delaysContentTouches: false, cancelsControlTouches: true,
                               touchDelay: 0.1, hysteresis: 12.5)
        let record = TouchRecord(session: "s", sample: TouchSample(t: 1, x: -0.0, y: 0, phase: .began),
                                 attributes: SessionAttributes(config: "c", frame: Rect(x: -0.0, y: 2, width: 44, height: 44),
                                                               container: custom),
                                 source: SourceLocation(file: "w", line: 1))
        for format in TouchLogFormat.allCases {
            var w = TouchLogWriter(format: format)
            w.writeHeader()
            w.append(record)
            let text = String(decoding: w.buffer, as: UTF8.self)
            let back = try #require(try read(text, format).first, "\(text)")
            #expect(back.attributes.container == custom, "\(format): \(text)")
            #expect(back.sample.x.sign == .minus && back.attributes.frame?.x.sign == .minus, "\(format): \(text)")
            #expect(back.attributes == record.attributes && back.sample == record.sample)
        }
    }

    // NDJSON writes every attribute a record gives (CSV has columns for the writer's only).
    @Test func ndjsonWritesEveryAttributeGiven() throws {
        let a = SessionAttributes(config: "c", text: [.device: "iPhone15,2", .user: "u"], extraFields: [ExtraField(key: "z", json: "[1]")])
        var w = TouchLogWriter(format: .ndjson)
        w.append(TouchRecord(session: "s", sample: TouchSample(t: 0, x: 0, y: 0, phase: .began), attributes: a,
                             source: SourceLocation(file: "w", line: 1)))
        #expect(String(decoding: w.buffer, as: UTF8.self)
                == #"{"session":"s","t":0,"phase":"began","x":0,"y":0,"config":"c","user":"u","device":"iPhone15,2","z":[1]}"# + "\n")
    }
}
