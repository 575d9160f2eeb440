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
