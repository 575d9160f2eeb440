-- wrk script for `landmark-near serve`: every request is one OwnTracks HTTP-mode location,
-- POST /owntracks with the app's JSON body and its X-Limit-U / X-Limit-D headers, from 1,000
-- devices driving around Turtle Rock as in osmand.lua: the HTTP figure beside the MQTT one of
-- `landmark-bench mqtt`. Prints the same JSON line as osmand.lua.
--
--   wrk -t2 -c64 -d10s --latency -s Benchmarks/serve/owntracks.lua http://127.0.0.1:8083

local threads = {}
local counter = 0

function setup(thread)
  counter = counter + 1
  thread:set("thread_id", counter)
  table.insert(threads, thread)
end

function init(args)
  ok = 0
  other = 0
  sequence = 0
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  sequence = sequence + 1
  local device = (thread_id * 7919 + sequence) % 1000
  local step = sequence
  local angle = (step + device * 37) * 0.01
  local lat = 34.011286 + 0.15 * math.sin(angle)
  local lon = -116.166868 + 0.1 * math.sin(2 * angle)
  local body = string.format('{"_type":"location","tid":"ph","lat":%.6f,"lon":%.6f,"tst":%d,"acc":8,"batt":77}',
                             lat, lon, 1777636800 + step)
  local headers = {["X-Limit-U"] = "bench" .. thread_id, ["X-Limit-D"] = "d" .. device}
  return wrk.format(nil, "/owntracks", headers, body)
end

function response(status, headers, body)
  if status == 200 then ok = ok + 1 else other = other + 1 end
end

function done(summary, latency, requests)
  local total_ok = 0
  local total_other = 0
  for _, thread in ipairs(threads) do
    total_ok = total_ok + thread:get("ok")
    total_other = total_other + thread:get("other")
  end
  io.write(string.format('{"requests":%d,"ok":%d,"other":%d,"errors":%d,"seconds":%.3f,"p50_us":%d,"p90_us":%d,"p99_us":%d,"max_us":%d}\n',
    summary.requests, total_ok, total_other,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.status + summary.errors.timeout,
    summary.duration / 1e6, latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
end
