import Foundation
import Synchronization
import Testing

@testable import LandmarkNearServer

/// The server's pieces on their own: addresses, users files, password hashes, the queue.
@Suite("serve: parts", .suiteTimeLimit)
struct ServerPartsTests {
    @Test(arguments: [
        ("127.0.0.1:8083", true), ("127.1.2.3:0", true), ("[::1]:80", true), ("localhost:1", true),
        ("0.0.0.0:8083", false), ("[::]:8083", false), ("10.0.0.1:80", false), ("[::ffff:127.0.0.1]:9", true),
    ])
    func loopbackAddresses(text: String, loopback: Bool) async throws {
        #expect(try ListenAddress(parsing: text).isLoopback == loopback)
    }

    @Test(arguments: ["8083", "127.0.0.1:", "127.0.0.1:65536", ":80", "127.0.0.1:-1", "no.such.host.invalid:80"])
    func badAddresses(text: String) {
        #expect(throws: ServerError.self) { try ListenAddress(parsing: text) }
    }

    @Test func passwordHashesVerifyOnlyTheirPassword() async throws {
        let hash = try PasswordHash.make(password: Array("pässword".utf8))
        #expect(hash.hasPrefix("$y$"))
        #expect(PasswordHash.verify(password: Array("pässword".utf8), hash: hash))
        #expect(!PasswordHash.verify(password: Array("password".utf8), hash: hash))
        #expect(!PasswordHash.verify(password: Array("pässword".utf8), hash: "$y$broken"))
        #expect(!PasswordHash.verify(password: [0x61, 0, 0x62], hash: hash))
        // SHA-512 crypt hashes (as `mkpasswd -m sha-512` makes them) verify too.
        let sha = try #require(PasswordHash.testHash(password: Array("pässword".utf8), setting: "$6$saltsalt$"))
        #expect(sha.hasPrefix("$6$saltsalt$"))
        #expect(PasswordHash.verify(password: Array("pässword".utf8), hash: sha))
        #expect(!PasswordHash.verify(password: Array("pässwort".utf8), hash: sha))
    }

    @Test func constantTimeEquality() {
        #expect(ConstantTime.equal([1, 2, 3], [1, 2, 3]))
        #expect(!ConstantTime.equal([1, 2, 3], [1, 2, 4]))
        #expect(!ConstantTime.equal([1, 2, 3], [1, 2]))
        #expect(!ConstantTime.equal([], [0]))
        #expect(ConstantTime.equal([], []))
    }

    @Test func basicCredentials() {
        let header = "Basic " + Data("alice:pa:ss".utf8).base64EncodedString()
        let parsed = BasicAuthenticator.credentials(header)
        #expect(parsed?.0 == "alice" && parsed?.1 == Array("pa:ss".utf8))
        #expect(BasicAuthenticator.credentials("Basic " + Data("nocolon".utf8).base64EncodedString()) == nil)
        #expect(BasicAuthenticator.credentials("Digest abc") == nil)
        #expect(BasicAuthenticator.credentials(nil) == nil)
    }

    @Test func formEncoding() {
        let pairs = FormEncoding.pairs(Array("id=a%20b&lat=1.5&flag&x=%E2%82%AC+y".utf8))
        #expect(pairs?.map(\.name) == ["id", "lat", "flag", "x"])
        #expect(pairs?.map(\.value) == ["a b", "1.5", nil, "€ y"])
        #expect(FormEncoding.pairs(Array("a=%G1".utf8)) == nil)
        #expect(FormEncoding.pairs(Array("a=%4".utf8)) == nil)
        #expect(FormEncoding.pairs(Array("a=%FF".utf8)) == nil)
    }

    @Test func queueKeepsArrivalOrderAndDrainsAfterClose() {
        let queue = EngineQueue()
        let answers = Mutex<[EngineAnswer]>([])
        let jobs = (0..<5).map { EngineJob(.records([], source: "s\($0)")) { answer in answers.withLock { $0.append(answer) } } }
        for job in jobs { #expect(queue.submit(job)) }
        queue.close()
        #expect(!queue.submit(EngineJob(.reload)))
        let batch = queue.nextBatch()
        #expect(
            batch?.map { job -> String in if case .records(_, let source) = job.work { source } else { "" } } == [
                "s0", "s1", "s2", "s3", "s4",
            ])
        #expect(queue.nextBatch() == nil)
        jobs[0].finish(.processed(3))
        #expect(answers.withLock { $0 } == [.processed(3)])
    }

    @Test func usersFiles() async throws {
        let users = try ServerUsers.parse(
            Array(#"{"a": {"password": "$y$x", "devices": ["p", "q"]}, "b": {"password": "$6$y", "devices": "*"}}"#.utf8), source: "u.json")
        #expect(users["a"]?.owns("p") == true && users["a"]?.owns("r") == false)
        #expect(users["b"]?.owns("anything") == true)
        #expect(users["c"] == nil)
        for bad in [
            #"{"a/b": {"password": "$y$x", "devices": "*"}}"#, #"{"a": {"password": "$y$x", "devices": [1]}}"#,
            #"{"a": {"password": "$y$x", "devices": "all"}}"#, #"{"a": {"devices": "*"}}"#,
        ] {
            #expect(throws: ServerError.self) { try ServerUsers.parse(Array(bad.utf8), source: "u.json") }
        }
    }
}
