import Testing
import PressCore

@Suite struct ContentHashTests {
    // Test vectors from the FNV reference's test suite (fnv64a of "", "a", "foobar").
    @Test func matchesPublishedFNV1a64Vectors() {
        #expect(FNV1a64.hex("") == "cbf29ce484222325")
        #expect(FNV1a64.hex("a") == "af63dc4c8601ec8c")
        #expect(FNV1a64.hex("foobar") == "85944171f73967e8")
    }
}
