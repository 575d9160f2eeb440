import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearReaders

@Suite(.suiteTimeLimit) struct FixTimeTests {
    @Test(arguments: [
        (#""2026-05-01T12:00:02Z""#, Timestamp(seconds: 1_777_636_802)),
        (#""2026-05-01T12:00:02.123456789Z""#, Timestamp(seconds: 1_777_636_802, nanoseconds: 123_456_789)),
        (#""2026-05-01T14:00:02+02:00""#, Timestamp(seconds: 1_777_636_802)),
        (#""2026-05-01T07:30:02.5-0430""#, Timestamp(seconds: 1_777_636_802, nanoseconds: 500_000_000)),
        (#""2026-05-01 12:00:02""#, Timestamp(seconds: 1_777_636_802)),
        ("1777636802", Timestamp(seconds: 1_777_636_802)),
        ("1777636802.25", Timestamp(seconds: 1_777_636_802, nanoseconds: 250_000_000)),
        ("1777636802250", Timestamp(seconds: 1_777_636_802, nanoseconds: 250_000_000)),
        (#""1777636802""#, Timestamp(seconds: 1_777_636_802)),
        (#""1777636802250""#, Timestamp(seconds: 1_777_636_802, nanoseconds: 250_000_000)),
        ("0", Timestamp(seconds: 0)),
        ("-1.5", Timestamp(seconds: -2, nanoseconds: 500_000_000)),
    ])
    func timeForms(_ example: (json: String, expected: Timestamp)) throws {
        let result = try FixReading.read(#"{"lat":1,"lon":2,"time":\#(example.json)}"#)
        #expect(result.issues.isEmpty)
        #expect(result.fixes.first?.time == example.expected)
    }

    @Test func nullAndEmptyTimeAreNoTime() throws {
        let result = try FixReading.read(#"{"lat":1,"lon":2,"time":null}"# + "\n" + #"{"lat":1,"lon":2,"time":""}"#)
        #expect(result.fixes.map(\.time) == [nil, nil])
    }

    @Test func timestampBytesMatchString() {
        for text in ["2026-05-01T12:00:02Z", "2026-05-01T12:00:02,5Z", "2026-05-01t12:00:02z", "2026-05-01T12:00:60Z", "bad", ""] {
            var copy = text
            let fromBytes = copy.withUTF8 { Timestamp(rfc3339UTF8: $0) }
            #expect(fromBytes == Timestamp(rfc3339: text))
        }
    }

    @Test(arguments: [
        ("34.011286", 34.011286), ("-116.166868", -116.166868), ("0", 0), ("1e3", 1000), ("+1.5", 1.5),
        (".5", 0.5), ("5.", 5), (" 7 ", 7), ("12345678901234567890", 12345678901234567890.0),
        ("0.1234567890123456789", 0.1234567890123456789), ("1.7976931348623157e308", 1.7976931348623157e308),
        ("123.456e-5", 123.456e-5),
    ])
    func decimalNumbers(_ example: (text: String, value: Double)) {
        #expect(DecimalNumber.parse(Array(example.text.utf8)) == example.value)
    }

    @Test(arguments: ["", "-", "1.2.3", "1e", "abc", "0x1p3", "1,5", "1 2"])
    func notNumbers(_ text: String) {
        #expect(DecimalNumber.parse(Array(text.utf8)) == nil)
    }

    @Test func ownTracksTriggerIsNotATime() throws {
        let text = [
            #"{"_type":"location","t":"u","tst":1777636802,"lat":1,"lon":2}"#,
            #"{"t":1777636802,"tst":5,"lat":1,"lon":2}"#,
            #"{"tst":5,"time":"2026-05-01T12:00:02Z","t":7,"lat":1,"lon":2}"#,
        ].joined(separator: "\n")
        let result = try FixReading.read(text)
        #expect(result.issues.isEmpty)
        #expect(
            result.fixes.map(\.time) == [
                Timestamp(seconds: 1_777_636_802), Timestamp(seconds: 1_777_636_802), Timestamp(seconds: 1_777_636_802),
            ])
        let csv = try FixReading.read("tst,t,lat,lon\n5,1777636802,1,2\n")
        #expect(csv.fixes.map(\.time) == [Timestamp(seconds: 1_777_636_802)])
    }

    @Test func everyAliasIsMatched() {
        // `date` is a CSV column only (GPSBabel's unicsv), matched by the CSV header reader.
        for role in FieldRole.allCases where role != .date {
            for (rank, alias) in role.aliases.enumerated() {
                let match = FieldRole.match(alias)
                #expect(match?.role == role && match?.rank == rank, "\(alias)")
            }
        }
        #expect(FieldRole.match("Lat") == nil)
        #expect(FieldRole.match("lats") == nil)
    }

    /// The byte matcher reads a key's first 8 bytes as one integer: every alias with any one
    /// byte changed, cut short or made longer is no key.
    @Test func nearMissesOfAliasesAreNoKeys() {
        let aliases = Set(FieldRole.allCases.filter { $0 != .date }.flatMap(\.aliases))
        for alias in aliases {
            let bytes = Array(alias.utf8)
            var misses: [[UInt8]] = [Array(bytes.dropLast()), bytes + [UInt8(ascii: "s")], bytes + [0]]
            for position in bytes.indices {
                for flip: UInt8 in [0x01, 0x20, 0x80] {
                    var changed = bytes
                    changed[position] ^= flip
                    misses.append(changed)
                }
            }
            for miss in misses {
                let expected = String(validating: miss, as: UTF8.self).flatMap { aliases.contains($0) ? $0 : nil }
                let match = miss.withUnsafeBufferPointer { FieldRole.match($0) }
                #expect((match != nil) == (expected != nil), "\(miss) from \(alias)")
            }
        }
    }
}
