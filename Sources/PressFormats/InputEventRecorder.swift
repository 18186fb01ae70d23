// Input events → touch records, whatever the recording's format: the contact tracking, the
// per-device clock check, the axis ranges the recording gave, and the records and rejects built
// from them. `DeviceLogReader` (line formats) and `LibinputRecordReader` (YAML) both feed one.
import Foundation
import PressCore

/// Turns a recording's events into `DeviceLogItem`s: one record per contact per frame
/// (`ContactTracker`), in points (`DeviceLogOptions`), with a reject per event that cannot be
/// used (time going backwards on a device, a frame over `ContactTracker.maximumFrameEvents`
/// events) and per frame whose data belongs to no contact.
struct InputEventRecorder: Sendable {
    let file: String
    let contentHash: String
    let options: DeviceLogOptions

    private var tracker = ContactTracker()
    private var lastTime: [String: Double] = [:]
    /// Axis ranges (and resolutions) the recording gives, by device then code.
    private var headerRanges: [String: [UInt16: AxisRange]] = [:]

    init(file: String, contentHash: String, options: DeviceLogOptions) {
        self.file = file; self.contentHash = contentHash; self.options = options
    }

    /// Notes an axis the recording describes (a header line, an `absinfo` entry).
    mutating func axis(device: String, code: UInt16, _ range: AxisRange) {
        headerRanges[device, default: [:]][code] = range
    }

    /// Notes an axis's value when the recording began (the current slot, from evtest's header).
    mutating func axisValue(device: String, code: UInt16, _ value: Int32) {
        tracker.startValue(device: device, code: code, value)
    }

    /// An event pressdb reads: the records its `SYN_REPORT` commits, or rejects. `line` and
    /// `raw` locate it.
    mutating func event(_ event: InputEvent, line: Int, raw: Substring) -> [DeviceLogItem] {
        if let r = checkTime(event.time, device: event.device, line: line, raw) { return [r] }
        guard let samples = tracker.consume(event, line: line) else {
            return [reject("more than \(ContactTracker.maximumFrameEvents) events without a SYN_REPORT", line: line, raw)]
        }
        return samples.map { .record(record($0)) } + tracker.takeProblems().map { reject($0.reason, line: line, raw) }
    }

    /// A well-formed event pressdb does not use: only its time is checked.
    mutating func otherEvent(time: Double, device: String, line: Int, raw: Substring) -> [DeviceLogItem] {
        checkTime(time, device: device, line: line, raw).map { [$0] } ?? []
    }

    func reject(_ reason: String, line: Int, _ raw: Substring) -> DeviceLogItem {
        .reject(Reject(source: SourceLocation(file: file, line: line), reason: reason, raw: String(raw)))
    }

    func warning(_ message: String, line: Int, _ raw: Substring) -> DeviceLogItem {
        .warning(DeviceLogWarning(source: SourceLocation(file: file, line: line), message: message, raw: String(raw)))
    }

    var openContacts: [DeviceLogOpenContact] {
        tracker.openContacts.map {
            DeviceLogOpenContact(session: DeviceLogReader.sessionID(contentHash: contentHash, contact: $0.contact),
                                 last: record($0, attributes: false))
        }
    }

    var uncommittedEvents: Int { tracker.uncommittedEvents }

    func touchProtocol(device: String) -> TouchProtocol? { tracker.touchProtocol(device: device) }

    /// The axis ranges used for a sample's X and Y: `options.absRange`, else the recording's
    /// ranges for its axes (multi-touch axes fall back to the single-touch ones and vice versa).
    func ranges(device: String, axes: ContactAxes) -> (x: AxisRange?, y: AxisRange?) {
        if let r = options.absRange { return (r.x, r.y) }
        let (mtX, mtY, stX, stY) = (InputEventCode.absMTPositionX, InputEventCode.absMTPositionY,
                                    InputEventCode.absX, InputEventCode.absY)
        let order: [(UInt16, UInt16)] = axes == .multiTouch ? [(mtX, mtY), (stX, stY)] : [(stX, stY), (mtX, mtY)]
        for (cx, cy) in order {
            if let x = headerRange(device: device, code: cx), let y = headerRange(device: device, code: cy) {
                return (x, y)
            }
        }
        return (nil, nil)
    }

    private func headerRange(device: String, code: UInt16) -> AxisRange? {
        if let r = headerRanges[device]?[code] ?? headerRanges[""]?[code] { return r }
        // A log naming no device, with -p ranges announced per device: use them when only one
        // device has this axis.
        let candidates = headerRanges.values.compactMap { $0[code] }
        return device.isEmpty && candidates.count == 1 ? candidates[0] : nil
    }

    private func record(_ s: ContactSample, attributes withAttributes: Bool = true) -> TouchRecord {
        let r = ranges(device: s.device, axes: s.axes)
        let p = options.point(rawX: s.x, rawY: s.y, xRange: r.x, yRange: r.y)
        var attributes = SessionAttributes()
        if withAttributes && s.phase == .began {
            attributes = options.layout?.sessionAttributes(touchDown: p, defaults: options.attributes)
                ?? options.attributes
        }
        if withAttributes && s.afterDrop {
            attributes.setExtraFields([Self.synDropped] + attributes.extraFields.filter { $0.key != Self.synDropped.key })
        }
        return TouchRecord(session: DeviceLogReader.sessionID(contentHash: contentHash, contact: s.contact),
                           sample: TouchSample(t: s.time, x: p.x, y: p.y, phase: s.phase),
                           attributes: attributes, source: SourceLocation(file: file, line: s.line))
    }

    /// The extra attribute a session read after a `SYN_DROPPED` carries: `"syn_dropped": true`.
    static let synDropped = ExtraField(key: "syn_dropped", json: "true")

    private mutating func checkTime(_ time: Double, device: String, line: Int, _ raw: Substring) -> DeviceLogItem? {
        if let last = lastTime[device], time < last {
            return reject("time goes backwards: \(time) s after \(last) s", line: line, raw)
        }
        lastTime[device] = time
        return nil
    }
}
