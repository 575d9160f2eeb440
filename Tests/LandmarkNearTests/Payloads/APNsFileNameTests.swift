import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearOutputs
@testable import LandmarkNearServer

@Suite(.suiteTimeLimit) struct APNsFileNameTests {
    static let time = Timestamp(rfc3339: "2026-05-01T12:00:02Z")

    static let hostileDevices: [String] = [
        "", ".", "..", "...", "../../etc/passwd", "/etc/passwd", "a/b", "a_b", "a\\b", "a\0b", "\0", "line\nbreak",
        "tab\there", ".hidden", "-rf", "--", "x", "x-1001", "x-1001-20260501T120002Z", "x_1001", "x.apns",
        String(repeating: "d", count: 300), String(repeating: "d", count: 301), String(repeating: "é", count: 300),
        "iPhone de Zoé", "東京", "👨‍👩‍👧‍👦", "a b", "A", "a", "default", "d1", "d1-h0123456789abcdef",
        "_-h" + FNV1a.hex(""), "a_b-h" + FNV1a.hex("a/b"), "CON", "nul", "a%2Fb", "a:b", "*", "?", "~",
        String(repeating: ".", count: 300), String(repeating: "/", count: 255),
        // `-` is kept: names that could read as the other fields.
        "phone-1", "phone-1-1002", "phone_1", "a-fix", "a-fix-1", "fix-1", "x-n5", "-", "a-", "a--b", "h0123456789abcdef",
        "x-h" + FNV1a.hex("x/"), "x/-h" + FNV1a.hex("x/"), "x_h" + FNV1a.hex("x/"), "d1-h0123456789ABCDEF",
        "x-20260501T120002Z", "x-e1001", String(repeating: "-", count: 200), String(repeating: "a-", count: 100),
    ]

    static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            return true
        default: return false
        }
    }

    @Test func aPlainDeviceNameIsKeptAsIs() {
        #expect(
            APNsFileName.make(device: "d1", landmarkID: 1002, time: APNsFileNameTests.time, fixNumber: 3)
                == "d1-1002-20260501T120002Z.apns")
        #expect(APNsFileName.make(device: "d1", landmarkID: 1002, time: nil, fixNumber: 3) == "d1-1002-fix-3.apns")
        #expect(APNsFileName.make(device: "phone.2", landmarkID: -5, time: nil, fixNumber: 0) == "phone.2-n5-fix-0.apns")
        #expect(
            APNsFileName.make(device: "d", landmarkID: 1, time: Timestamp(rfc3339: "2026-05-01T12:00:02.25Z"), fixNumber: 1)
                == "d-1-20260501T120002.25Z.apns")
    }

    /// SPEC 6 allows `-` in a name: `phone-1` keeps it, and gets no hash (sanitizing changed nothing).
    @Test func aHyphenIsKept() {
        #expect(APNsFileName.make(device: "phone-1", landmarkID: 1002, time: nil, fixNumber: 3) == "phone-1-1002-fix-3.apns")
        #expect(
            APNsFileName.make(device: "my-phone.2", landmarkID: 1001, time: APNsFileNameTests.time, fixNumber: 1)
                == "my-phone.2-1001-20260501T120002Z.apns")
        #expect(APNsFileName.make(device: "a--b-", landmarkID: 1, time: nil, fixNumber: 1) == "a--b--1-fix-1.apns")
    }

    /// A leading `-` (an option to `rm *`) and a tail that reads as the hash field are changed,
    /// and so carry the hash.
    @Test func aHyphenThatWouldMisleadIsReplaced() {
        #expect(APNsFileName.make(device: "-rf", landmarkID: 1, time: nil, fixNumber: 1) == "_rf-h\(FNV1a.hex("-rf"))-1-fix-1.apns")
        let lookalike = "x-h" + FNV1a.hex("x/")
        #expect(
            APNsFileName.make(device: lookalike, landmarkID: 1, time: nil, fixNumber: 1)
                == "x_h\(FNV1a.hex("x/"))-h\(FNV1a.hex(lookalike))-1-fix-1.apns")
        // Upper-case hex is no hash field (the hash is written in lower case): kept.
        #expect(
            APNsFileName.make(device: "d1-h0123456789ABCDEF", landmarkID: 1, time: nil, fixNumber: 1)
                == "d1-h0123456789ABCDEF-1-fix-1.apns")
    }

    /// Every name reads back, from the right, to the (device part, hash, landmark, fix) it was
    /// made of: the layout the type documents is the one it writes.
    @Test(arguments: hostileDevices)
    func aNameReadsBackFromTheRight(device: String) throws {
        for (time, fix) in [(APNsFileNameTests.time, 7), (nil, 7), (nil, -3), (Timestamp(seconds: -62_200_000_000, nanoseconds: 5), 1)] {
            for landmark in [1002, -5, 0] {
                let name = APNsFileName.make(device: device, landmarkID: landmark, time: time, fixNumber: fix)
                var fields = name.dropLast(".apns".count).split(separator: "-", omittingEmptySubsequences: false).map(String.init)
                let popped = fields.popLast()
                let last = try #require(popped)
                let isNumber = { (text: String) in
                    let digits = text.hasPrefix("n") ? text.dropFirst() : Substring(text)
                    return !digits.isEmpty && digits.allSatisfy(\.isNumber)
                }
                if isNumber(last) {
                    let word = fields.popLast()
                    #expect(time == nil && word == "fix", "\(name)")
                    #expect(last == (fix < 0 ? "n\(-fix)" : "\(fix)"), "\(name)")
                } else {
                    #expect(time.map(APNsFileName.timePart) == last, "\(name)")
                }
                let landmarkField = fields.popLast()
                #expect(landmarkField == (landmark < 0 ? "n\(-landmark)" : "\(landmark)"), "\(name)")
                let rest = fields.joined(separator: "-")
                let hashed = APNsFileName.sanitize(device) + "-h" + FNV1a.hex(device)
                #expect(rest == device || rest == hashed, "\(name)")
                // As is exactly when sanitizing changes nothing (SPEC 6: the hash marks a change).
                #expect((rest == device) == (APNsFileName.sanitize(device) == device), "\(name)")
                // And a reader tells the two apart by the tail alone.
                let endsInHash = rest.range(of: "-h[0-9a-f]{16}$", options: .regularExpression) != nil
                #expect(endsInHash == (rest != device), "\(name)")
            }
        }
    }

    @Test func aSanitizedNameCarriesTheHashOfTheRawName() {
        let name = APNsFileName.make(device: "a/b", landmarkID: 1002, time: nil, fixNumber: 1)
        #expect(name == "a_b-h\(FNV1a.hex("a/b"))-1002-fix-1.apns")
        #expect(FNV1a.hex("a/b").count == 16)
        #expect(FNV1a.hex("") == "cbf29ce484222325", "FNV-1a-64 offset basis")
        #expect(FNV1a.hex("a") == "af63dc4c8601ec8c", "FNV-1a-64 test vector")
    }

    @Test(arguments: hostileDevices)
    func hostileDeviceNamesGiveSafeFileNames(device: String) {
        for time in [APNsFileNameTests.time, nil, Timestamp(seconds: -62_200_000_000, nanoseconds: 5), Timestamp(seconds: 400_000_000_000)]
        {
            for (landmark, fix) in [(1002, 7), (Int.min, Int.min), (Int.max, Int.max)] {
                let name = APNsFileName.make(device: device, landmarkID: landmark, time: time, fixNumber: fix)
                let bytes = Array(name.utf8)
                #expect(bytes.allSatisfy(APNsFileNameTests.isAllowed), "charset of \(name)")
                #expect(bytes.count <= 255)
                #expect(!name.contains("/") && !name.contains("\0"))
                #expect(name != "." && name != ".." && !name.hasPrefix("."), "no hidden or special names")
                #expect(!name.hasPrefix("-"), "no names that read as options")
                #expect(name.hasSuffix(".apns"))
                #expect(name == APNsFileName.make(device: device, landmarkID: landmark, time: time, fixNumber: fix), "deterministic")
                let resolved = URL(fileURLWithPath: "/tmp/apns-dir").appendingPathComponent(name).standardizedFileURL
                #expect(resolved.deletingLastPathComponent().path == "/tmp/apns-dir", "stays in the directory")
            }
        }
    }

    @Test func distinctInputsNeverShareAName() {
        let times: [Timestamp?] = [
            nil, APNsFileNameTests.time, Timestamp(rfc3339: "2026-05-01T12:00:02.5Z"), Timestamp(rfc3339: "2026-05-01T12:00:03Z"),
            Timestamp(seconds: -62_200_000_000), Timestamp(seconds: 62_200_000_000), Timestamp(seconds: 1001),
        ]
        var seen: [String: String] = [:]
        for device in APNsFileNameTests.hostileDevices {
            for landmark in [1001, 1002, -1001, 1, 0] {
                for time in times {
                    for fix in [1, 2, 1001, -1] where time == nil || fix == 1 {
                        let name = APNsFileName.make(device: device, landmarkID: landmark, time: time, fixNumber: fix)
                        let key = "\(device.debugDescription)|\(landmark)|\(String(describing: time))|\(time == nil ? fix : 0)"
                        if let other = seen[name] {
                            Issue.record("\(key) and \(other) share \(name)")
                        }
                        seen[name] = key
                    }
                }
            }
        }
        #expect(seen.count > 1000)
    }

    @Test func theSameInputsGiveTheSameNameAcrossRuns() {
        // Pinned values: the hash must not depend on the process (Swift's Hasher would).
        #expect(
            APNsFileName.make(device: "../../etc/passwd", landmarkID: 1002, time: nil, fixNumber: 4)
                == "_._.._etc_passwd-h2bef2c0bbbdefdfa-1002-fix-4.apns")
        #expect(FNV1a.hex("foobar") == "85944171f73967e8")
    }
}
