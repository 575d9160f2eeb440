import Glibc

/// What a key of an NDJSON object or a CSV column means for a fix (docs/reference/fixes.md), with its
/// aliases in order of preference: when an object has both `lat` and `latitude`, `lat` wins.
///
///     FieldRole.match("lng")   // (.longitude, 1)
enum FieldRole: Int, CaseIterable, Sendable {
    case latitude, longitude, device, time, accuracy
    /// `t`: a time in plain fixes, but OwnTracks' trigger letter (`"t":"u"`) in its messages.
    case shortTime
    /// gpsd's `class` (`TPV`, `SKY`, ...) and `mode` (0 unknown, 1 no fix, 2 2D, 3 3D).
    case gpsdClass, gpsdMode
    /// OwnTracks' `_type` (`location`, `transition`, ...).
    case ownTracksType
    /// A CSV `date` column beside a time-of-day `time` column (GPSBabel's unicsv).
    case date

    var aliases: [String] {
        switch self {
        case .latitude: return ["lat", "latitude"]
        case .longitude: return ["lon", "lng", "longitude"]
        case .device: return ["device", "id", "deviceid", "tid"]
        case .time: return ["time", "tst", "timestamp"]
        case .shortTime: return ["t"]
        case .accuracy: return ["acc", "accuracy", "eph"]
        case .gpsdClass: return ["class"]
        case .gpsdMode: return ["mode"]
        case .ownTracksType: return ["_type"]
        case .date: return ["date"]
        }
    }

    /// How the field is named in messages.
    var name: String {
        switch self {
        case .latitude: return "latitude"
        case .longitude: return "longitude"
        case .device: return "device"
        case .time, .shortTime: return "time"
        case .accuracy: return "accuracy"
        case .gpsdClass: return "class"
        case .gpsdMode: return "mode"
        case .ownTracksType: return "_type"
        case .date: return "date"
        }
    }

    /// The role and alias rank of an exact (case-sensitive) key.
    static func match(_ key: String) -> (role: FieldRole, rank: Int)? {
        var key = key
        return key.withUTF8 { match($0) }
    }

    /// The role and alias rank of an exact key given as UTF-8 bytes; a switch on length and
    /// first byte, so that the NDJSON fast path does not compare against every alias.
    static func match(_ key: UnsafeBufferPointer<UInt8>) -> (role: FieldRole, rank: Int)? {
        func equals(_ literal: StaticString) -> Bool {
            literal.utf8CodeUnitCount == key.count && memcmp(literal.utf8Start, key.baseAddress!, key.count) == 0
        }
        guard let first = key.first else { return nil }
        switch (key.count, first) {
        case (1, UInt8(ascii: "t")): return (.shortTime, 0)
        case (2, UInt8(ascii: "i")): return equals("id") ? (.device, 1) : nil
        case (3, UInt8(ascii: "l")):
            if equals("lat") { return (.latitude, 0) }
            if equals("lon") { return (.longitude, 0) }
            if equals("lng") { return (.longitude, 1) }
            return nil
        case (3, UInt8(ascii: "a")): return equals("acc") ? (.accuracy, 0) : nil
        case (3, UInt8(ascii: "e")): return equals("eph") ? (.accuracy, 2) : nil
        case (3, UInt8(ascii: "t")):
            if equals("tst") { return (.time, 1) }
            if equals("tid") { return (.device, 3) }
            return nil
        case (4, UInt8(ascii: "t")): return equals("time") ? (.time, 0) : nil
        case (4, UInt8(ascii: "m")): return equals("mode") ? (.gpsdMode, 0) : nil
        case (5, UInt8(ascii: "c")): return equals("class") ? (.gpsdClass, 0) : nil
        case (5, UInt8(ascii: "_")): return equals("_type") ? (.ownTracksType, 0) : nil
        case (6, UInt8(ascii: "d")): return equals("device") ? (.device, 0) : nil
        case (8, UInt8(ascii: "l")): return equals("latitude") ? (.latitude, 1) : nil
        case (8, UInt8(ascii: "d")): return equals("deviceid") ? (.device, 2) : nil
        case (8, UInt8(ascii: "a")): return equals("accuracy") ? (.accuracy, 1) : nil
        case (9, UInt8(ascii: "l")): return equals("longitude") ? (.longitude, 2) : nil
        case (9, UInt8(ascii: "t")): return equals("timestamp") ? (.time, 2) : nil
        default: return nil
        }
    }
}
