import Foundation
import PressCore
import PressRecorder
import PressTestSupport
import Testing

/// The recorder's files, ingested by `pressdb ingest`, give back the presses it was given.
@Suite struct RecorderRoundTripTests {
    struct Press {
        var control: PressedControl
        var samples: [TouchSample]
    }

    /// Presses of every kind of container, interleaved two fingers at a time, with coalesced
    /// moves; their samples and attributes are what the database must hold.
    func presses() -> [Press] {
        let containers: [ContainerKind] = [
            .none,
            .scrollView(ScrollViewParameters(delaysContentTouches: true, cancelsControlTouches: false, axis: .vertical)),
            .scrollView(ScrollViewParameters(delaysContentTouches: true, cancelsControlTouches: true, axis: .horizontal)),
            .scrollView(ScrollViewParameters(delaysContentTouches: false, cancelsControlTouches: false, axis: .both)),
        ]
        return (0..<40).map { k in
            let t0 = 1000 + Double(k) * 0.25
            let x = 100 + Double(k), y = 300.5
            var samples = [TouchSample(t: t0, x: x, y: y, phase: .began)]
            for m in stride(from: 1, through: k % 5, by: 1) { samples.append(TouchSample(t: t0 + 0.008 * Double(m), x: x + Double(m), y: y - 0.25 * Double(m), phase: .moved)) }
            samples.append(TouchSample(t: t0 + 0.1 + 0.001 * Double(k), x: x + 6, y: y, phase: k % 7 == 0 ? .cancelled : .ended))
            let control = PressedControl(
                frame: Rect(x: 90, y: 280, width: 120 + Double(k % 3), height: 44), configuration: k % 2 == 0 ? "spring-press" : "expand-delayed-click",
                variant: k % 2 == 0 ? "A" : "B", controlID: "button-\(k % 4)", screen: k % 3 == 0 ? "feed" : "cart",
                container: containers[k % 4], displayProfile: k % 2 == 0 ? "iphone-60hz" : nil, userID: "u\(k % 6)")
            return Press(control: control, samples: samples)
        }
    }

    @Test func recorderOutputIngestsAsTheSameSessionsSamplesAndAttributes() throws {
        let dir = try Binary.temporaryDirectory()
        var fileOptions = PressLogFiles.Options(directory: dir.path)
        fileOptions.maximumBytes = 2_000   // several files, sessions spanning them
        let files = try PressLogFiles(options: fileOptions)
        var options = PressRecorder.Options()
        options.sessionPrefix = "rt"
        options.appVersion = "5.2 (beta)"
        options.device = "iPhone15,2"
        options.bufferBytes = 512
        let recorder = PressRecorder(options: options, output: files)
        let all = presses()
        // Two fingers at a time: press 2j and 2j+1 interleave sample by sample; the moves after
        // the first are delivered coalesced into one delivery.
        for pair in stride(from: 0, to: all.count, by: 2) {
            for (finger, p) in [all[pair], all[pair + 1]].enumerated() {
                let s = p.samples[0]
                recorder.began(RecordedTouch(id: finger, phase: .began, location: s.point, timestamp: s.t), on: p.control)
            }
            for (finger, p) in [all[pair], all[pair + 1]].enumerated() {
                let moves = p.samples.dropFirst().dropLast()
                if let last = moves.last {
                    recorder.update(RecordedTouch(id: finger, phase: .moved, location: last.point, timestamp: last.t,
                                                  coalesced: moves.map { CoalescedSample(location: $0.point, timestamp: $0.t) }))
                }
            }
            for (finger, p) in [all[pair], all[pair + 1]].enumerated() {
                let e = p.samples[p.samples.count - 1]
                recorder.update(RecordedTouch(id: finger, phase: e.phase, location: e.point, timestamp: e.t))
            }
        }
        recorder.flush()
        let inputs = files.finishedFiles() + [files.activePath]
        #expect(inputs.count >= 3)
        let db = dir.appendingPathComponent("rt.sqlite")
        let run = try Binary.run(["ingest", "--db", db.path] + inputs)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("sessions: 40 new, 0 duplicate, 0 conflict, 0 pending"))
        #expect(run.stderr.contains("0 rejected"))

        let rows = try sqlite3(db, """
            SELECT session, sample_count, hex(samples), config, variant, control, frame_x, frame_y, frame_w, frame_h,
                   container, ifnull(scroll_axis, ''), screen, app_version, user, device, ifnull(extra, '')
            FROM sessions ORDER BY id
            """).stdout.split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.count == 40)
        // Sessions are numbered in the order their fingers went down: press k is session rt-(k+1).
        for (k, p) in all.enumerated() {
            guard k < rows.count else { break }
            let row = rows[k]
            let c = p.control
            #expect(row[0] == "rt-\(k + 1)")
            #expect(row[1] == "\(p.samples.count)")
            #expect(row[2] == Self.hex(p.samples), "press \(k)")
            #expect(row[3] == c.configuration && row[4] == c.variant && row[5] == c.controlID)
            #expect(row[6...9].map { Double($0)! } == [c.frame.x, c.frame.y, c.frame.width, c.frame.height])
            switch c.container {
            case .none:
                #expect(row[10] == "none" && row[11] == "")
            case .scrollView(let s):
                let expected = s.delaysContentTouches
                    ? (s.cancelsControlTouches ? "table" : "scroll")
                    : #"{"cancels_control_touches":false,"delays_content_touches":false,"hysteresis":10,"touch_delay":0.15}"#
                #expect(row[10] == expected)
                #expect(row[11] == s.axis!.rawValue)
            }
            #expect(row[12] == c.screen && row[13] == "5.2 (beta)" && row[14] == c.userID && row[15] == "iPhone15,2")
            // The display profile: pressdb's `display` (an extra field until the table has it).
            if let display = c.displayProfile {
                #expect(row[16] == #"{"display":"\#(display)"}"# || row[16] == "")
            } else {
                #expect(row[16] == "")
            }
        }
    }

    /// The `samples` BLOB of docs/log-format.md, built independently: per sample t, x, y as
    /// little-endian binary64 and the phase's byte (0 began … 4 cancelled), in hex.
    static func hex(_ samples: [TouchSample]) -> String {
        let codes: [TouchPhase: UInt8] = [.began: 0, .moved: 1, .stationary: 2, .ended: 3, .cancelled: 4]
        var bytes: [UInt8] = []
        for s in samples {
            for d in [s.t, s.x, s.y] { withUnsafeBytes(of: d.bitPattern.littleEndian) { bytes += $0 } }
            bytes.append(codes[s.phase]!)
        }
        return bytes.map { String(format: "%02X", $0) }.joined()
    }
}
