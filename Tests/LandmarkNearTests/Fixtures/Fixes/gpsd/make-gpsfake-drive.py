import functools
def cs(body): return "%02X" % functools.reduce(lambda a,b: a^b, body.encode(), 0)
def s(body): return "$%s*%s" % (body, cs(body))
def dm(v, lat):
    h = ('N' if v>=0 else 'S') if lat else ('E' if v>=0 else 'W')
    v=abs(v); d=int(v); m=(v-d)*60
    return ("%02d%07.4f" if lat else "%03d%07.4f") % (d, m), h
lines=["# gpsfake log: a drive near Turtle Rock, Joshua Tree (synthetic, realistic sentence mix)"]
lat, lon = 34.0205, -116.1750
for i in range(40):
    t = "2359%02d.00" % (48+i) if 48+i < 60 else "0000%02d.00" % (48+i-60)
    date = "300426" if 48+i < 60 else "010526"
    la, ns = dm(lat, True); lo, ew = dm(lon, False)
    talker = "GP" if i % 2 == 0 else "GN"
    lines.append(s("%sRMC,%s,A,%s,%s,%s,%s,12.5,165.3,%s,12.1,E,A" % (talker, t, la, ns, lo, ew, date)))
    lines.append(s("%sGGA,%s,%s,%s,%s,%s,1,09,0.9,1234.5,M,-31.2,M,," % (talker, t, la, ns, lo, ew)))
    lines.append(s("GPGSA,A,3,04,05,09,12,17,24,25,,,,,,1.8,0.9,1.5"))
    lines.append(s("GPGSV,3,1,11,04,62,055,42,05,17,316,38,09,27,138,40,12,46,247,44"))
    lines.append(s("GPVTG,165.3,T,153.2,M,12.5,N,23.2,K,A"))
    if i % 3 == 0: lines.append(s("GLGLL,%s,%s,%s,%s,%s,A,A" % (la, ns, lo, ew, t)))
    if i % 4 == 1: lines.append(s("GNGNS,%s,%s,%s,%s,%s,AAN,14,0.8,1234.5,-31.2,," % (t, la, ns, lo, ew)))
    lat -= 0.00005; lon += 0.00002
open("drive.nmea","w").write("\n".join(lines)+"\n")
