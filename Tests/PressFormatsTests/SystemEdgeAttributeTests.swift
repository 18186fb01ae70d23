// The attributes `window` and `system_gestures` (docs/log-format.md): read from NDJSON and CSV,
// refused with a reason naming the file, line and the expected form, written back by the log
// writer in both formats.
import Testing
import PressCore
@testable import PressFormats

@Suite struct SystemEdgeAttributeTests {
    let began = #"{"session":"s","t":0,"phase":"began","x":10,"y":400"#

    @Test func ndjsonReadsWindowAndSystemGestures() throws {
        let items = try readNDJSON(began + #","window":[390,844],"system_gestures":["home","back"]}"#)
        guard case .touch(let r) = items.first else { Issue.record("no touch: \(items)"); return }
        #expect(r.attributes.window == WindowSize(width: 390, height: 844))
        #expect(r.attributes.systemGestures == [.back, .home])
        let none = try readNDJSON(began + #","window":[375.5,667],"system_gestures":[]}"#)
        guard case .touch(let n) = none.first else { Issue.record("no touch"); return }
        #expect(n.attributes.window == WindowSize(width: 375.5, height: 667) && n.attributes.systemGestures == [])
    }

    @Test func ndjsonRefusesWithAReason() throws {
        let cases: [(String, String)] = [
            (#","window":"390x844"}"#, #"e.ndjson:1: "window" must be [width, height] in points, not a string"#),
            (#","window":[390]}"#, #"e.ndjson:1: "window" must be [width, height] in points, 2 numbers, not 1"#),
            (#","window":[0,844]}"#, #"e.ndjson:1: "window" width and height must be finite positive numbers of points"#),
            (#","system_gestures":"back"}"#,
             #"e.ndjson:1: "system_gestures" must be a list of "back" and "home" ([] for none), not a string"#),
            (#","system_gestures":["left"]}"#, #"e.ndjson:1: system_gestures "left" is not one of back, home"#),
            (#","system_gestures":[1]}"#, #"e.ndjson:1: "system_gestures" must be a list of the strings "back" and "home""#),
        ]
        for (tail, message) in cases {
            let items = try readNDJSON(began + tail)
            #expect(rejectReason(items.first) == message, "\(tail)")
        }
    }

    @Test func csvReadsAndRefuses() throws {
        let items = try readCSV("""
            session,t,phase,x,y,window,system_gestures
            s,0,began,10,400,390x844,back+home
            s,0.1,ended,10,400,,
            u,0,began,10,400,390x844,none
            v,0,began,10,400,390,back
            w,0,began,10,400,390x844,back home
            """)
        guard case .touch(let r) = items[0] else { Issue.record("no touch: \(items)"); return }
        #expect(r.attributes.window == WindowSize(width: 390, height: 844) && r.attributes.systemGestures == [.back, .home])
        guard case .touch(let u) = items[2] else { Issue.record("no touch: \(items)"); return }
        #expect(u.attributes.systemGestures == [])
        #expect(rejectReason(items[3]) == #"e.csv:5: window "390" is not <width>x<height> in positive points (e.g. 390x844)"#)
        #expect(rejectReason(items[4]) == #"e.csv:6: system_gestures "back home" is not back, home, back+home or none"#)
    }

    @Test func theWriterWritesWhatTheReadersRead() throws {
        var a = SessionAttributes(config: "c")
        a.window = WindowSize(width: 390, height: 844)
        a.systemGestures = [.back, .home]
        let record = TouchRecord(session: "s", sample: TouchSample(t: 1, x: 10, y: 400, phase: .began), attributes: a,
                                 source: SourceLocation(file: "w", line: 1))
        for format in TouchLogFormat.allCases {
            var w = TouchLogWriter(format: format, attributes: SessionAttribute.ordered)
            w.writeHeader()
            w.append(record)
            let text = String(decoding: w.buffer, as: UTF8.self)
            if format == .ndjson { #expect(text.contains(#""window":[390,844],"system_gestures":["back","home"]"#)) }
            if format == .csv { #expect(text.contains(",390x844,back+home")) }
            let items = format == .ndjson ? try readNDJSON(text) : try readCSV(text)
            guard case .touch(let back)? = items.first else { Issue.record("\(format): \(text)"); continue }
            #expect(back.attributes == a, "\(format): \(text)")
        }
    }
}
