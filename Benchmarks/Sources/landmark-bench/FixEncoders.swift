import LandmarkNear

/// One fix as a line (or element) of each input format of docs/reference/fixes.md.
enum FixEncoders {
    /// `{"device":"dev0042","lat":..,"lon":..,"time":"...","acc":5}`
    static func ndjson(_ out: ByteWriter, device: [UInt8], at point: Coordinate, time: [UInt8]) {
        out.write("{\"device\":\"" as StaticString)
        out.write(bytes: device)
        out.write("\",\"lat\":" as StaticString)
        out.write(point.latitude, decimals: 6)
        out.write(",\"lon\":" as StaticString)
        out.write(point.longitude, decimals: 6)
        out.write(",\"time\":\"" as StaticString)
        out.write(bytes: time)
        out.write("\",\"acc\":5}\n" as StaticString)
    }

    static let csvHeader: StaticString = "device,lat,lon,time,accuracy\n"

    static func csv(_ out: ByteWriter, device: [UInt8], at point: Coordinate, time: [UInt8]) {
        out.write(bytes: device)
        out.write(byte: UInt8(ascii: ","))
        out.write(point.latitude, decimals: 6)
        out.write(byte: UInt8(ascii: ","))
        out.write(point.longitude, decimals: 6)
        out.write(byte: UInt8(ascii: ","))
        out.write(bytes: time)
        out.write(",5\n" as StaticString)
    }

    static let gpxHeader: StaticString = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="landmark-bench" xmlns="http://www.topografix.com/GPX/1/1">
        <trk><name>dev0000</name><trkseg>

        """
    static let gpxFooter: StaticString = "</trkseg></trk>\n</gpx>\n"

    static func gpx(_ out: ByteWriter, at point: Coordinate, time: [UInt8]) {
        out.write("<trkpt lat=\"" as StaticString)
        out.write(point.latitude, decimals: 6)
        out.write("\" lon=\"" as StaticString)
        out.write(point.longitude, decimals: 6)
        out.write("\"><time>" as StaticString)
        out.write(bytes: time)
        out.write("</time></trkpt>\n" as StaticString)
    }

    /// `$GPRMC` then `$GPGGA` for one fix (the GGA repeats the RMC's second; the engine drops
    /// it as stale, as docs/reference/fixes.md says).
    static func nmea(_ out: ByteWriter, at point: Coordinate, time: [UInt8], speed: Double, heading: Double) {
        // time: yyyy-mm-ddThh:mm:ssZ
        let hhmmss = [time[11], time[12], time[14], time[15], time[17], time[18]]
        let ddmmyy = [time[8], time[9], time[5], time[6], time[2], time[3]]
        var rmc: [UInt8] = Array("GPRMC,".utf8)
        rmc += hhmmss
        rmc += Array(".00,A,".utf8)
        appendPosition(point, to: &rmc)
        rmc.append(UInt8(ascii: ","))
        ByteWriter.appendFixed(speed * 1.943844, decimals: 1, to: &rmc)
        rmc.append(UInt8(ascii: ","))
        ByteWriter.appendFixed(heading, decimals: 1, to: &rmc)
        rmc.append(UInt8(ascii: ","))
        rmc += ddmmyy
        rmc += Array(",,,A".utf8)
        sentence(out, rmc)

        var gga: [UInt8] = Array("GPGGA,".utf8)
        gga += hhmmss
        gga += Array(".00,".utf8)
        appendPosition(point, to: &gga)
        gga += Array(",1,08,0.9,100.0,M,0.0,M,,".utf8)
        sentence(out, gga)
    }

    private static func sentence(_ out: ByteWriter, _ body: [UInt8]) {
        var checksum: UInt8 = 0
        for byte in body { checksum ^= byte }
        let hex = Array("0123456789ABCDEF".utf8)
        out.write(byte: UInt8(ascii: "$"))
        out.write(bytes: body)
        out.write(bytes: [UInt8(ascii: "*"), hex[Int(checksum >> 4)], hex[Int(checksum & 15)], 0x0D, 0x0A])
    }

    /// `ddmm.mmmm,N,dddmm.mmmm,E`
    private static func appendPosition(_ point: Coordinate, to out: inout [UInt8]) {
        appendAngle(point.latitude, degreeDigits: 2, to: &out)
        out.append(UInt8(ascii: ","))
        out.append(point.latitude < 0 ? UInt8(ascii: "S") : UInt8(ascii: "N"))
        out.append(UInt8(ascii: ","))
        appendAngle(point.longitude, degreeDigits: 3, to: &out)
        out.append(UInt8(ascii: ","))
        out.append(point.longitude < 0 ? UInt8(ascii: "W") : UInt8(ascii: "E"))
    }

    private static func appendAngle(_ degrees: Double, degreeDigits: Int, to out: inout [UInt8]) {
        let tenThousandthsOfMinute = Int((degrees.magnitude * 600_000).rounded())
        ByteWriter.appendInteger(tenThousandthsOfMinute / 600_000, width: degreeDigits, to: &out)
        let rest = tenThousandthsOfMinute % 600_000
        ByteWriter.appendInteger(rest / 10_000, width: 2, to: &out)
        out.append(UInt8(ascii: "."))
        ByteWriter.appendInteger(rest % 10_000, width: 4, to: &out)
    }
}
