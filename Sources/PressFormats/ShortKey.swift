import Foundation

/// A byte string told by three words: its byte count, its first eight bytes and its last eight.
/// Two strings with different `ShortKey`s differ; two strings of up to 16 bytes with equal
/// `ShortKey`s are equal (the words cover every byte); longer ones are equal when their first
/// `count - 8` bytes are too. The readers' caches (`SessionIDCache`, `AttributeValueCache`) probe
/// their entries with these words, so an entry holding another key costs three compares, not a
/// `memcmp`.
struct ShortKey: Equatable {
    /// The byte count; -1 in `KeySlots` marks an empty slot.
    var count: Int
    /// The first eight bytes as one word (0 for a string of up to eight bytes: `tail` holds it).
    var head: UInt64
    /// The last eight bytes as one word (fewer: all of them, in the low bytes).
    var tail: UInt64

    /// The empty slot's key: equal to no string's.
    static let none = ShortKey(count: -1, head: 0, tail: 0)

    private init(count: Int, head: UInt64, tail: UInt64) {
        self.count = count; self.head = head; self.tail = tail
    }

    @inline(__always)
    init(_ b: UnsafeBufferPointer<UInt8>) {
        count = b.count
        guard let p = b.baseAddress else { head = 0; tail = 0; return }
        let n = b.count
        head = n > 8 ? WordScan.load(p) : 0
        if n >= 8 {
            tail = WordScan.load(p + (n - 8))
        } else {
            var v: UInt64 = 0
            for i in 0..<n { v = v << 8 | UInt64(p[i]) }
            tail = v
        }
    }

    /// Whether the three words are all of the string (no bytes need keeping or comparing).
    var isWhole: Bool { count <= 16 }
}

/// A fixed number of slots, each holding one byte string as a `ShortKey` and, when the key is not
/// whole, its bytes: the key half of the readers' small caches, which keep their values in
/// arrays of their own indexed by slot.
struct KeySlots {
    private var keys: [ShortKey]
    private var bytes: [[UInt8]]

    /// `count` empty slots.
    init(count: Int) {
        keys = Array(repeating: .none, count: count)
        bytes = Array(repeating: [], count: count)
    }

    /// Whether slot `k` holds the string `b`, whose key is `key`.
    @inline(__always)
    func holds(_ k: Int, _ key: ShortKey, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard keys[k] == key else { return false }
        return key.isWhole
            || bytes[k].withUnsafeBufferPointer { memcmp($0.baseAddress!, b.baseAddress!, key.count - 8) == 0 }
    }

    /// Puts the string `b`, whose key is `key`, in slot `k`.
    @inline(__always)
    mutating func store(_ k: Int, _ key: ShortKey, _ b: UnsafeBufferPointer<UInt8>) {
        if !key.isWhole {
            bytes[k].removeAll(keepingCapacity: true)
            bytes[k].append(contentsOf: b)
        }
        keys[k] = key
    }
}
