import Testing
@testable import PressCore

@Suite struct ContainerTests {
    // Reference §2.1's table of named containers.
    @Test func namedContainersMatchTheReferenceTable() throws {
        let scroll = try #require(Container(named: "scroll"))
        #expect(scroll.delaysContentTouches && !scroll.cancelsControlTouches)
        let table = try #require(Container(named: "table"))
        #expect(table.delaysContentTouches && table.cancelsControlTouches)
        let immediate = try #require(Container(named: "scroll-immediate"))
        #expect(!immediate.delaysContentTouches && immediate.cancelsControlTouches)
        #expect(Container(named: "none")?.isScrollView == false)
        #expect(Container(named: "list") == nil)
        #expect(scroll.touchDelay == 0.150 && scroll.hysteresis == 10)
    }
}
