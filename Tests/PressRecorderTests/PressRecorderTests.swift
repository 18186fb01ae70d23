import Foundation
import PressCore
import PressFormats
@testable import PressRecorder
import Testing

/// An output that keeps what it is given, or fails when told to.
final class MemoryOutput: PressLogOutput {
    var bytes: [UInt8] = []
    var writes = 0
    var fails = false
    struct Failure: Error {}
    func write(_ lines: [UInt8]) throws {
        if fails { throw Failure() }
        writes += 1
        bytes += lines
    }
    var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// Every record the NDJSON reader gets from `text`, rejects included.
func readBack(_ text: String) throws -> [RecordItem] {
    var reader = NDJSONReader(ByteInput(text: text, name: "rec"))
    var items: [RecordItem] = []
    while let item = try reader.next() { items.append(item) }
    return items
}

func touches(_ items: [RecordItem]) -> [TouchRecord] {
    items.compactMap { if case .touch(let r) = $0 { return r } else { return nil } }
}

@Suite struct PressRecorderTests {
    let button = PressedControl(frame: Rect(x: 140, y: 380, width: 95, height: 44), configuration: "spring-press",
                                variant: "A", controlID: "buy", screen: "cart",
                                container: .scrollView(ScrollViewParameters(delaysContentTouches: true,
                                                                            cancelsControlTouches: true, axis: .vertical)),
                                displayProfile: "iphone-promotion", userID: "u42")

    func recorder(_ out: MemoryOutput, _ configure: (inout PressRecorder.Options) -> Void = { _ in }) -> PressRecorder {
        var o = PressRecorder.Options()
        o.sessionPrefix = "p"
        o.appVersion = "3.1"
        o.device = "iPhone15,2"
        configure(&o)
        return PressRecorder(options: o, output: out)
    }

    @Test func aTapIsOneSessionWithItsAttributesOnTheBeganLine() throws {
        let out = MemoryOutput()
        let r = recorder(out)
        r.began(RecordedTouch(id: 7, phase: .began, location: Point(x: 187.5, y: 402), timestamp: 12.034), on: button)
        r.update(RecordedTouch(id: 7, phase: .stationary, location: Point(x: 187.5, y: 402), timestamp: 12.051))
        r.update(RecordedTouch(id: 7, phase: .ended, location: Point(x: 188, y: 402.5), timestamp: 12.112))
        r.flush()
        let lines = out.text.split(separator: "\n")
        #expect(lines.count == 3)
        // The field table's keys in its order; the display profile as pressdb's `display`.
        let expectedBegan = #"{"session":"p-1","t":12.034,"phase":"began","x":187.5,"y":402,"config":"spring-press","#
            + #""variant":"A","control":"buy","frame":[140,380,95,44],"container":"table","scroll_axis":"vertical","#
            + #""screen":"cart","app_version":"3.1","user":"u42","device":"iPhone15,2""#
        #expect(lines[0].hasPrefix(expectedBegan))
        #expect(lines[0].contains(#""display":"iphone-promotion""#))
        #expect(lines[2] == #"{"session":"p-1","t":12.112,"phase":"ended","x":188,"y":402.5}"#)

        let records = touches(try readBack(out.text))
        #expect(records.count == 3)
        #expect(records.map(\.sample) == [TouchSample(t: 12.034, x: 187.5, y: 402, phase: .began),
                                          TouchSample(t: 12.051, x: 187.5, y: 402, phase: .stationary),
                                          TouchSample(t: 12.112, x: 188, y: 402.5, phase: .ended)])
        let a = records[0].attributes
        #expect(a.config == "spring-press" && a.variant == "A" && a.control == "buy")
        #expect(a.frame == Rect(x: 140, y: 380, width: 95, height: 44))
        #expect(a.container == Container.table && a.scrollAxis == .vertical)
        #expect(a[.screen] == "cart" && a[.appVersion] == "3.1" && a[.user] == "u42" && a[.device] == "iPhone15,2")
    }

    @Test func nothingButTheNamedFieldsIsWritten() throws {
        let out = MemoryOutput()
        let r = recorder(out)
        r.began(RecordedTouch(id: 1, phase: .began, location: Point(x: 1, y: 2), timestamp: 1), on: button)
        r.flush()
        let object = try JSONSerialization.jsonObject(with: Data(out.bytes)) as! [String: Any]
        let allowed = Set(["session", "t", "phase", "x", "y", "display"] + SessionAttribute.allCases.map(\.key))
        #expect(Set(object.keys).isSubset(of: allowed))
        #expect(object.count == 16)   // 5 sample fields, 10 attributes, the display profile
    }

    @Test func coalescedSamplesBecomeMovesInOrderWithoutRepeatingTheTouch() throws {
        let out = MemoryOutput()
        let r = recorder(out)
        r.began(RecordedTouch(id: 1, phase: .began, location: Point(x: 10, y: 10), timestamp: 1.000), on: button)
        // A delivery at 1.016 s carrying samples at 1.004, 1.008, 1.012 and itself (the last).
        let coalesced = [1.004, 1.008, 1.012, 1.016].enumerated().map {
            CoalescedSample(location: Point(x: 10 + Double($0.offset + 1), y: 10), timestamp: $0.element)
        }
        r.update(RecordedTouch(id: 1, phase: .moved, location: Point(x: 14, y: 10), timestamp: 1.016, coalesced: coalesced))
        // An end with a stale coalesced sample (before the last written): skipped, counted.
        r.update(RecordedTouch(id: 1, phase: .ended, location: Point(x: 15, y: 10), timestamp: 1.020,
                               coalesced: [CoalescedSample(location: Point(x: 0, y: 0), timestamp: 1.010)]))
        r.flush()
        let samples = touches(try readBack(out.text)).map(\.sample)
        #expect(samples.map(\.t) == [1.000, 1.004, 1.008, 1.012, 1.016, 1.020])
        #expect(samples.map(\.phase) == [.began, .moved, .moved, .moved, .moved, .ended])
        #expect(samples.map(\.x) == [10, 11, 12, 13, 14, 15])
        #expect(r.counts.samplesSkipped == 1)
        #expect(r.counts.samples == 6)
    }

    @Test func anEndEarlierThanTheLastSampleIsWrittenAtThatTimeSoTheSessionCompletes() throws {
        let out = MemoryOutput()
        let r = recorder(out)
        r.began(RecordedTouch(id: 1, phase: .began, location: Point(x: 10, y: 10), timestamp: 2), on: button)
        r.update(RecordedTouch(id: 1, phase: .cancelled, location: Point(x: 11, y: 10), timestamp: 1.5))
        r.update(RecordedTouch(id: 1, phase: .moved, location: Point(x: 11, y: 10), timestamp: 3))   // no longer followed
        r.flush()
        let samples = touches(try readBack(out.text)).map(\.sample)
        #expect(samples == [TouchSample(t: 2, x: 10, y: 10, phase: .began), TouchSample(t: 2, x: 11, y: 10, phase: .cancelled)])
    }

    @Test func interleavedFingersGetTheirOwnSessions() throws {
        let out = MemoryOutput()
        let r = recorder(out)
        r.began(RecordedTouch(id: 1, phase: .began, location: Point(x: 1, y: 1), timestamp: 1), on: button)
        r.began(RecordedTouch(id: 2, phase: .began, location: Point(x: 2, y: 2), timestamp: 1.1), on: button)
        r.update(RecordedTouch(id: 1, phase: .ended, location: Point(x: 1, y: 1), timestamp: 1.2))
        r.began(RecordedTouch(id: 1, phase: .began, location: Point(x: 3, y: 3), timestamp: 1.3), on: button)
        r.update(RecordedTouch(id: 2, phase: .ended, location: Point(x: 2, y: 2), timestamp: 1.4))
        r.update(RecordedTouch(id: 1, phase: .ended, location: Point(x: 3, y: 3), timestamp: 1.5))
        r.flush()
        let records = touches(try readBack(out.text))
        #expect(records.map(\.session) == ["p-1", "p-2", "p-1", "p-3", "p-2", "p-3"])
    }

    @Test func memoryIsBoundedByOpenFingersAndTheBuffer() throws {
        let out = MemoryOutput()
        let r = recorder(out) { $0.maximumOpenTouches = 2; $0.bufferBytes = 256 }
        for id in 0..<5 { r.began(RecordedTouch(id: id, phase: .began, location: Point(x: 1, y: 1), timestamp: 1), on: button) }
        #expect(r.counts.sessions == 2 && r.counts.overOpenLimit == 3)
        // Each began line is over 256 bytes with its attributes: each went out on its own.
        #expect(out.writes == 2)
        out.fails = true
        for k in 0..<100 { r.update(RecordedTouch(id: 0, phase: .moved, location: Point(x: 1, y: 1), timestamp: 1 + Double(k))) }
        r.flush()
        #expect(r.counts.bytesDropped > 0 && r.lastError != nil)
        #expect(out.writes == 2)
    }

    @Test func notFiniteValuesAreNeverWritten() throws {
        let out = MemoryOutput()
        let r = recorder(out)
        r.began(RecordedTouch(id: 1, phase: .began, location: Point(x: .nan, y: 1), timestamp: 1), on: button)
        var flat = button
        flat.frame = Rect(x: 0, y: 0, width: 0, height: 44)   // no area: left out, not rejected by ingest
        r.began(RecordedTouch(id: 2, phase: .began, location: Point(x: 1, y: 1), timestamp: 1), on: flat)
        r.update(RecordedTouch(id: 2, phase: .moved, location: Point(x: .infinity, y: 1), timestamp: 2))
        r.update(RecordedTouch(id: 2, phase: .ended, location: Point(x: 1, y: 1), timestamp: 3))
        r.flush()
        let items = try readBack(out.text)
        #expect(items.allSatisfy { if case .touch = $0 { true } else { false } })
        #expect(touches(items).map(\.sample.t) == [1, 3])
        #expect(touches(items)[0].attributes.frame == nil)
        #expect(r.counts.samplesSkipped == 2)
    }
}

@Suite struct UserSamplingTests {
    @Test func theHashIsFNV1aOfTheIDsBytesMixed() {
        // FNV-1a 64 of "a" is 0xaf63dc4c8601ec8c (the FNV reference's test vectors); SplitMix64's
        // output function of it, in Python (z ^= z >> 30; z *= 0xBF58476D1CE4E5B9; z ^= z >> 27;
        // z *= 0x94D049BB133111EB; z ^= z >> 31, mod 2**64) is 0x02c0bdbf481420f8, whose top 53
        // bits over 2**53 are 0.010753497314070604.
        #expect(UserSampling.position(of: "a") == 0.010753497314070604)
        #expect(UserSampling(rate: 0.011).includes("a"))
        #expect(!UserSampling(rate: 0.010).includes("a"))
        #expect(UserSampling(rate: 1).includes("a") && !UserSampling(rate: 0).includes("a"))
        #expect(!UserSampling(rate: .nan).includes("a"))
    }

    @Test func theShareRecordedIsTheRate() {
        // 20,000 ids at rate 0.1: a binomial share's 99.9 % band is 0.1 ± 3.29·sqrt(0.1·0.9/20,000)
        // = ± 0.0070 (the same computation in Python keeps 2,006). FNV-1a alone kept 0.087.
        let s = UserSampling(rate: 0.1)
        let kept = (0..<20_000).filter { s.includes("user-\($0)") }.count
        #expect(abs(Double(kept) / 20_000 - 0.1) < 0.0070)
        #expect(kept == 2_006)
        // Stable: the same ids, the same answer.
        #expect((0..<20_000).filter { s.includes("user-\($0)") }.count == kept)
    }

    @Test func aUserNotSampledIsNotRecorded() {
        let out = MemoryOutput()
        var o = PressRecorder.Options()
        o.sampling = UserSampling(rate: 0.01)   // "a" sits at 0.01075: out
        let r = PressRecorder(options: o, output: out)
        r.began(RecordedTouch(id: 1, phase: .began, location: Point(x: 1, y: 1), timestamp: 1),
                on: PressedControl(frame: Rect(x: 0, y: 0, width: 10, height: 10), userID: "a"))
        r.update(RecordedTouch(id: 1, phase: .ended, location: Point(x: 1, y: 1), timestamp: 2))
        r.flush()
        #expect(out.bytes.isEmpty && r.counts.notSampled == 1)
    }
}

@Suite struct PressTargetsTests {
    @Test func theTopmostTargetContainingThePointWins() {
        let targets = PressTargets()
        targets.register("back", PressedControl(frame: Rect(x: 0, y: 0, width: 100, height: 100), controlID: "back"))
        targets.register("front", PressedControl(frame: Rect(x: 50, y: 50, width: 20, height: 20), controlID: "front"))
        #expect(targets.target(at: Point(x: 60, y: 60))?.controlID == "front")
        #expect(targets.target(at: Point(x: 10, y: 10))?.controlID == "back")
        #expect(targets.target(at: Point(x: 100, y: 100))?.controlID == "back")   // edges included
        #expect(targets.target(at: Point(x: 101, y: 10)) == nil)
        targets.register("back", PressedControl(frame: Rect(x: 0, y: 0, width: 100, height: 100), controlID: "back"))
        #expect(targets.target(at: Point(x: 60, y: 60))?.controlID == "back")   // registered again: on top
        targets.unregister("back")
        #expect(targets.count == 1)
    }

    @Test func scrollParametersMapToPressdbsContainers() {
        #expect(ScrollViewParameters(delaysContentTouches: true, cancelsControlTouches: false).container.name == "scroll")
        #expect(ScrollViewParameters(delaysContentTouches: true, cancelsControlTouches: true).container.name == "table")
        #expect(ScrollViewParameters(delaysContentTouches: false, cancelsControlTouches: true).container.name == "scroll-immediate")
        let neither = ScrollViewParameters(delaysContentTouches: false, cancelsControlTouches: false).container
        #expect(neither.name == nil && neither.isScrollView)
        #expect(neither.storedText == #"{"cancels_control_touches":false,"delays_content_touches":false,"hysteresis":10,"touch_delay":0.15}"#)
    }
}
