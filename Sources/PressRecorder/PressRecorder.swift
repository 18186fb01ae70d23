// The recorder: touches on controls in, pressdb's NDJSON out (docs/recording.md). One line per
// sample; the session's attributes on its `began` line, keyed by PressCore's field table.
import PressCore

/// Turns an app's touches on controls into pressdb touch records. Call it on one thread (UIKit's
/// main thread): `began` when a finger goes down on a control, `update` for each later delivery
/// of that finger, `flush` when the app goes to the background.
///
/// Memory is bounded: at most `Options.maximumOpenTouches` fingers are followed at once (a
/// finger beyond is not recorded), and lines wait in a buffer of about `Options.bufferBytes`
/// before they are handed to the output in one write; when the output fails, what it was given
/// is dropped and counted, never kept.
public final class PressRecorder {
    public struct Options: Sendable {
        /// Which users are recorded (`UserSampling`): by the hash of the control's user id; a
        /// press without one by the hash of the recorder's session prefix (one launch is all in
        /// or all out).
        public var sampling = UserSampling.everyone
        /// Fingers followed at once.
        public var maximumOpenTouches = 20
        /// Lines buffered before they are written.
        public var bufferBytes = 16_384
        /// The app's version (`app_version`), e.g. CFBundleShortVersionString.
        public var appVersion: String?
        /// The device model (`device`), e.g. `iPhone15,2`: a model, never the device's name.
        public var device: String?
        /// Session ids are `<prefix>-<n>`: a random prefix per recorder by default, so ids of
        /// different launches and devices do not collide and say nothing about the user.
        public var sessionPrefix: String?
        public init() {}
    }

    /// What the recorder left out, for the app's diagnostics.
    public struct Counts: Hashable, Sendable {
        /// Sessions begun and written.
        public var sessions = 0
        /// Samples written.
        public var samples = 0
        /// Presses not recorded: the user is not sampled.
        public var notSampled = 0
        /// Presses not recorded: `maximumOpenTouches` fingers were down already.
        public var overOpenLimit = 0
        /// Samples left out: earlier than the finger's previous sample, or not finite.
        public var samplesSkipped = 0
        /// Bytes dropped because the output failed.
        public var bytesDropped = 0
    }

    public let options: Options
    public private(set) var counts = Counts()
    /// The last error the output gave, if any.
    public private(set) var lastError: (any Error)?
    private let output: any PressLogOutput
    private let prefix: String
    private var nextSession = 1
    /// The fingers followed: id → (session id, time of its last sample written).
    private var open: [Int: (session: String, lastT: Double)] = [:]
    private var buffer: [UInt8] = []

    public init(options: Options = Options(), output: any PressLogOutput) {
        self.options = options
        self.output = output
        if let given = options.sessionPrefix {
            prefix = given
        } else {
            var h = FNV1a64()
            h.update(withUnsafeBytes(of: UInt64.random(in: .min ... .max)) { Array($0) })
            prefix = h.hex
        }
        buffer.reserveCapacity(options.bufferBytes + 1024)
    }

    /// A finger went down on `control` (`touch.phase` is taken as `began`).
    public func began(_ touch: RecordedTouch, on control: PressedControl) {
        guard open[touch.id] == nil else { return }   // a `began` repeated: the finger is followed already
        guard options.sampling.includes(control.userID ?? prefix) else { counts.notSampled += 1; return }
        guard open.count < options.maximumOpenTouches else { counts.overOpenLimit += 1; return }
        guard touch.timestamp.isFinite, touch.location.x.isFinite, touch.location.y.isFinite else {
            counts.samplesSkipped += 1; return
        }
        let session = "\(prefix)-\(nextSession)"
        nextSession += 1
        open[touch.id] = (session, touch.timestamp)
        counts.sessions += 1
        line(session, touch.timestamp, .began, touch.location, attributes: attributes(of: control))
    }

    /// A later delivery of a followed finger: its coalesced samples (as `moved`), then the
    /// touch itself in its phase. Nothing for a finger not followed.
    public func update(_ touch: RecordedTouch) {
        guard var state = open[touch.id], touch.phase != .began else { return }
        for c in touch.coalesced where c.timestamp < touch.timestamp {
            guard c.timestamp > state.lastT, c.timestamp.isFinite, c.location.x.isFinite, c.location.y.isFinite else {
                if c.timestamp != state.lastT { counts.samplesSkipped += 1 }
                continue
            }
            line(state.session, c.timestamp, .moved, c.location, attributes: nil)
            state.lastT = c.timestamp
        }
        if touch.timestamp >= state.lastT, touch.timestamp.isFinite, touch.location.x.isFinite, touch.location.y.isFinite {
            line(state.session, touch.timestamp, touch.phase, touch.location, attributes: nil)
            state.lastT = touch.timestamp
        } else if touch.phase.isTerminal {
            // The end must be written for the session to complete: at the last time written.
            line(state.session, state.lastT, touch.phase, touch.location.x.isFinite && touch.location.y.isFinite
                 ? touch.location : Point(x: 0, y: 0), attributes: nil)
            counts.samplesSkipped += 1
        } else {
            counts.samplesSkipped += 1
        }
        if touch.phase.isTerminal { open[touch.id] = nil } else { open[touch.id] = state }
    }

    /// Hands the buffered lines to the output.
    public func flush() {
        guard !buffer.isEmpty else { return }
        do { try output.write(buffer) } catch {
            counts.bytesDropped += buffer.count
            lastError = error
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// The session's attributes from the control's description and the recorder's options.
    func attributes(of control: PressedControl) -> SessionAttributes {
        var a = SessionAttributes()
        a.config = control.configuration
        a.variant = control.variant
        a.control = control.controlID
        // A frame of no area would make ingest reject the line; without it, replay takes the
        // 44 pt square around the touch-down.
        let f = control.frame
        if f.width > 0, f.height > 0, f.x.isFinite, f.y.isFinite, f.width.isFinite, f.height.isFinite { a.frame = f }
        switch control.container {
        case .none: a.container = Container.none
        case .scrollView(let p):
            a.container = p.container
            a.scrollAxis = p.axis
        }
        a[.screen] = control.screen
        a[.appVersion] = options.appVersion
        a[.user] = control.userID
        a[.device] = options.device
        if let display = control.displayProfile {
            if let attribute = PressRecorder.displayAttribute {
                a[value: attribute] = .text(display)
            } else {
                a.setExtraFields([ExtraField(key: PressRecorder.displayKey, json: JSONText.string(display))])
            }
        }
        return a
    }

    /// The key of the display profile's attribute (pressdb's `display`); written as an extra
    /// field while the field table has no row of that key.
    static let displayKey = "display"
    static let displayAttribute: SessionAttribute? = SessionAttribute.named(displayKey).flatMap {
        $0.kind == .text ? $0 : nil
    }

    // MARK: Lines

    private func line(_ session: String, _ t: Double, _ phase: TouchPhase, _ p: Point, attributes: SessionAttributes?) {
        buffer.append(contentsOf: #"{"session":"#.utf8)
        JSONText.appendString(session, to: &buffer)
        buffer.append(contentsOf: #","t":"#.utf8)
        JSONText.appendNumber(t, to: &buffer)
        buffer.append(contentsOf: #","phase":""#.utf8)
        buffer.append(contentsOf: phase.rawValue.utf8)
        buffer.append(contentsOf: #"","x":"#.utf8)
        JSONText.appendNumber(p.x, to: &buffer)
        buffer.append(contentsOf: #","y":"#.utf8)
        JSONText.appendNumber(p.y, to: &buffer)
        if let attributes { PressRecorder.appendAttributes(attributes, to: &buffer) }
        buffer.append(contentsOf: "}\n".utf8)
        counts.samples += 1
        if buffer.count >= options.bufferBytes { flush() }
    }

    /// `,"key":value` for each attribute given, in the field table's order and under its keys,
    /// then the extra fields.
    static func appendAttributes(_ a: SessionAttributes, to out: inout [UInt8]) {
        for attribute in SessionAttribute.ordered {
            guard let value = a[value: attribute] else { continue }
            out.append(0x2C)
            JSONText.appendString(attribute.key, to: &out)
            out.append(0x3A)
            switch value {
            case .text(let s): JSONText.appendString(s, to: &out)
            case .frame(let f):
                out.append(0x5B)
                for (k, d) in [f.x, f.y, f.width, f.height].enumerated() {
                    if k > 0 { out.append(0x2C) }
                    JSONText.appendNumber(d, to: &out)
                }
                out.append(0x5D)
            case .container(let c):
                if let name = c.name { JSONText.appendString(name, to: &out) } else { out.append(contentsOf: c.storedText.utf8) }
            case .scrollAxis(let axis): JSONText.appendString(axis.rawValue, to: &out)
            case .size(let w): out.append(contentsOf: w.json.utf8)
            case .systemGestures(let g): out.append(contentsOf: g.json.utf8)
            }
        }
        for f in a.extraFields {
            out.append(0x2C)
            JSONText.appendString(f.key, to: &out)
            out.append(0x3A)
            out.append(contentsOf: f.json.utf8)
        }
    }
}
