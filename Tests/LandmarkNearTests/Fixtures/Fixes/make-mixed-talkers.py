# Writes mixed-talkers.nmea: every position sentence type, talkers GP/GN/GL/GA/BD, and the
# cases that are not fixes or not valid. Run: python3 make-mixed-talkers.py
import functools
def s(body, checksum=True):
    cs = functools.reduce(lambda a, b: a ^ b, body.encode(), 0)
    return "$%s*%02X" % (body, cs) if checksum else "$" + body
lines = [
    "# mixed talkers",
    s("GPGGA,115959.00,4807.0380,N,01131.0000,E,1,08,0.9,545.4,M,46.9,M,,"),          # 2: GGA before any RMC: no time
    s("GPRMC,120000.00,V,,,,,,,010526,,,N"),                                           # 3: RMC void: not a fix (date still seen)
    s("GNRMC,120001.00,A,4807.0380,N,01131.0000,E,0.5,54.7,010526,,,A"),               # 4: fix 2026-05-01T12:00:01Z
    s("GPGGA,120001.50,4807.0390,N,01131.0010,E,1,08,0.9,545.4,M,46.9,M,,"),           # 5: fix 12:00:01.5 on RMC date
    s("GPGGA,120002.00,4807.0390,N,01131.0010,E,0,00,99.9,,M,,M,,"),                   # 6: quality 0: not a fix
    s("GLGLL,4807.0400,N,01131.0020,E,120003.00,A,A"),                                 # 7: fix
    s("GAGLL,4807.0400,N,01131.0020,E,120003.00,V,N"),                                 # 8: status V: not a fix
    s("BDGNS,120004.00,4807.0410,S,01131.0030,W,NA,06,1.1,545.4,46.9,,"),              # 9: fix (mode NA), S/W
    s("GNGNS,120005.00,4807.0410,N,01131.0030,E,NN,00,,,,,"),                          # 10: mode NN: not a fix
    s("GPGSV,2,1,08,01,40,083,46,02,17,308,41,12,07,344,39,14,22,228,45"),             # 11: other type
    s("GPGGA,120006.00,4807.0420,N,01131.0040,E,1,08,0.9,545.4,M,46.9,M,,")[:-2] + "00", # 12: bad checksum
    s("GNRMC,120007.00,A,4807.0430,N,01131.0050,E,0.5,54.7,010526,,,A", checksum=False), # 13: no checksum: fix
    "!AIVDM,1,1,,B,15M67FC000G?ufbE`FepT@3n00Sa,0*5C",                                 # 14: AIS: skipped
    s("PGRME,15.0,M,45.0,M,25.0,M"),                                                   # 15: proprietary: skipped
    s("GPRMC,120008.00,A,9107.0430,N,01131.0050,E,0.5,54.7,010526,,,A"),               # 16: latitude 91: invalid
]
open("mixed-talkers.nmea", "w").write("\n".join(lines) + "\n")
