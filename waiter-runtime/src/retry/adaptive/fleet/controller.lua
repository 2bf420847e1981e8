-- The fleet's controller (waiter-runtime's FleetRateLimiter): one call per member round,
-- atomic in Redis, on Redis's clock (TIME). Lua 5.1, as Redis and Valkey run it.
--
-- KEYS: the fleet's state (hash), its members' heartbeats (sorted set, score: Redis time of
--       the member's last round), its members' demands (hash, member -> requests/s, -1 for
--       "as much as it gets").
-- ARGV: 1 op ("sync" or "leave"), 2 member id, 3 the epoch the member's fresh throttles were
--       sent in, 4 responses, 5 throttles, 6 fresh throttles (sent in epoch ARGV[3]) since its
--       last round, 7 its demand, 8 a hint (the highest fleet rate it knew over its last 5 to
--       10 s, 0 if none), then the
--       constants: 9 beta, 10 CUBIC's C (relative: per s^3, as a share of the rate before the
--       last cut), 11 heartbeat expiry (s), 12 recovery period (s),
--       13 key expiry (ms), 14 measuring window (s), 15 smoothing, 16 cap (x the measured
--       rate), 17 floor (requests/s per member), 18 how long a fair split is reused (s),
--       19 the doubling time of the ramp after the fleet's first cut (s), 20 the members the
--       member last knew (0 if none), with the hint.
-- Reply: {"ok", share, epoch, members, fleet rate, Redis time, the rate the fleet was last
--       cut from} as strings; a share, a fleet rate and a last cut's rate of "-1" mean "no
--       limit" (no fleet congestion event yet). An error reply when a
--       key held something else than this script writes: the key is cleared for the next
--       round.

local state, seen, demand = KEYS[1], KEYS[2], KEYS[3]
local op, id = ARGV[1], ARGV[2]
local n = function(i) return tonumber(ARGV[i]) end
local member_epoch, responses, throttles, fresh = n(3), n(4), n(5), n(6)
local want, hint = n(7), n(8)
local beta, c, expiry, recovery, keep_ms = n(9), n(10), n(11), n(12), n(13)
local window, smoothing, cap, floor, reuse, doubling = n(14), n(15), n(16), n(17), n(18), n(19)
local hint_members = n(20)

local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000

local MAX_RATE, MAX_TIME, MAX_COUNT = 1e9, 1e11, 1e15

local function garbage(key, what)
  redis.call('DEL', key)
  return redis.error_reply('waiter fleet: ' .. key .. ' held ' .. what .. '; cleared')
end

-- The state, each field checked: a number in its range, or absent.
local fields = {
  {'on', 1}, {'cold', 1}, {'ramp', 1}, {'wmax', MAX_RATE}, {'tcut', MAX_TIME}, {'epoch', MAX_COUNT},
  {'recover_until', MAX_TIME}, {'win_start', MAX_TIME}, {'win_count', MAX_COUNT},
  {'win_throttles', MAX_COUNT}, {'measured', MAX_RATE}, {'share', 1}, {'level', MAX_RATE}, {'spare', MAX_RATE}, {'level_rate', MAX_RATE},
  {'level_at', MAX_TIME}, {'expect', MAX_COUNT}, {'expect_until', MAX_TIME},
}
local names = {}
for i, f in ipairs(fields) do names[i] = f[1] end
local ok, raw = pcall(redis.call, 'HMGET', state, unpack(names))
if not ok then return garbage(state, 'another type') end
local s = {}
for i, f in ipairs(fields) do
  if raw[i] then
    local x = tonumber(raw[i])
    -- `level` is -1 when every demand is met; nothing else is negative.
    local low = (f[1] == 'level') and -1 or 0
    if x == nil or x ~= x or x < low or x > f[2] then
      return garbage(state, 'an invalid ' .. f[1])
    end
    s[f[1]] = x
  end
end

-- Heartbeats: this member's, then the members whose last round is older than the expiry (or
-- in the future: another writer's) are gone, with their demands.
local joined, left = false, false
if op == 'leave' then
  ok, raw = pcall(redis.call, 'ZREM', seen, id)
  if not ok then return garbage(seen, 'another type') end
  left = raw == 1
  redis.call('HDEL', demand, id)
else
  ok, raw = pcall(redis.call, 'ZADD', seen, now, id)
  if not ok then return garbage(seen, 'another type') end
  joined = raw == 1
  ok, raw = pcall(redis.call, 'HSET', demand, id, want)
  if not ok then return garbage(demand, 'another type') end
end
local dead = redis.call('ZRANGEBYSCORE', seen, '-inf', '(' .. string.format('%.6f', now - expiry))
local ahead = redis.call('ZRANGEBYSCORE', seen, '(' .. string.format('%.6f', now + expiry), '+inf')
for _, list in ipairs({dead, ahead}) do
  for _, m in ipairs(list) do
    redis.call('ZREM', seen, m)
    redis.call('HDEL', demand, m)
    left = true
  end
end
local members = redis.call('ZCARD', seen)

-- The fleet's sending rate (responses counted over windows, smoothed) and the share of them
-- throttled (this window's once it counted 20 responses, else the last window's).
local win_start = s.win_start or now
local win_count = (s.win_count or 0) + responses
local win_throttles = math.min((s.win_throttles or 0) + throttles, win_count)
local measured, last_share = s.measured or 0, s.share or 0
local closed -- the rate of the window that closed in this round, if one did
if now - win_start >= window then
  closed = win_count / (now - win_start)
  local rate = closed
  if measured > 0 then rate = smoothing * rate + (1 - smoothing) * measured end
  if win_count > 0 then last_share = win_throttles / win_count end
  measured, win_start, win_count, win_throttles = rate, now, 0, 0
end
local throttled_share = last_share
if win_count >= 20 then throttled_share = win_throttles / win_count end

-- CUBIC on the fleet's rate: after a cut at `tcut` from `wmax`, the rate is
-- wmax (1 + C (t - tcut - k)^3) (CUBIC's curve, its C in proportion to wmax, so that fleets of
-- any size climb back in the same time), capped at `cap` x the measured rate, never under the
-- floor; k = cbrt((1 - beta) / C) is when it is back at wmax. After the fleet's first cut,
-- whose `wmax` is only what the service admitted while the members' retries backed off, the
-- rate also doubles every `doubling` s until the next cut (TCP's slow start).
local on, cold, ramp, wmax, tcut = s.on or 0, s.cold or 0, s.ramp or 0, s.wmax or 0, s.tcut or now
-- Never under the members' own floors, summed.
floor = floor * math.max(members, 1)
local k = ((1 - beta) / c) ^ (1 / 3)
local epoch, recover_until = s.epoch or 0, s.recover_until or 0
local function rate_at(at)
  local r = wmax * (1 + c * (at - tcut - k) ^ 3)
  if ramp == 1 then r = math.max(r, beta * wmax * 2 ^ ((at - tcut) / doubling)) end
  if measured > 0 then r = math.min(r, cap * measured) end
  return math.min(math.max(r, floor), MAX_RATE)
end

local cut = false
local expect, expect_until = s.expect or 0, s.expect_until or 0
if on == 0 and s.epoch == nil and hint > 0 and hint <= MAX_RATE then
  -- A lost state (Redis restarted empty, or the keys expired): from the rate the member last
  -- knew, as if just cut there (beta x, climbing back to it), split for a while between as
  -- many members as it last knew, while the others rejoin.
  on, wmax, epoch, tcut = 1, hint, 1, now
  expect, expect_until = math.min(hint_members, MAX_COUNT), now + 2 * expiry
  cut = true
elseif on == 0 and cold == 1 and closed then
  -- The fleet's first congestion event, measured over a whole window (a member's report
  -- alone tells little of the fleet's rate): one cut, from what the service admitted then.
  on, cold, ramp, wmax, tcut = 1, 0, 1, math.max(math.min(closed * (1 - last_share), MAX_RATE), floor), now
  epoch = epoch + 1
  recover_until = now + recovery
  cut = true
elseif op == 'sync' and fresh > 0 and member_epoch == epoch and on == 0 and cold == 0 then
  -- The first throttle of the fleet: measure the event for a window, from now.
  cold, win_start, win_count, win_throttles = 1, now, responses, math.min(throttles, responses)
elseif op == 'sync' and on == 1 and fresh > 0 and member_epoch == epoch and now >= recover_until then
  -- A throttle of a request sent since the last cut, past its recovery period: a new fleet
  -- congestion event, one cut, from what the service admitted: what the fleet sent (the
  -- rate allowed, or the measured rate if lower) less the share of it throttled.
  local sending = rate_at(now)
  if measured > 0 then sending = math.min(sending, measured) end
  local admitted = sending * (1 - math.min(throttled_share, 0.999))
  on, ramp, wmax, tcut = 1, 0, math.max(math.min(admitted, MAX_RATE), floor), now
  epoch = epoch + 1
  recover_until = now + recovery
  cut = true
end

-- The fair split: max-min by demand. A member asking less than an even split of what is
-- left gets what it asks; the others get the level. When every demand is met, what is left
-- is split evenly on top. Computed again when the fleet changed, else reused for `reuse` s.
local rate, share = -1, -1
local level, spare, level_rate = s.level or -1, s.spare or 0, s.level_rate or 0
if on == 1 then
  rate = rate_at(now)
  if cut or joined or left or s.level_at == nil or now - s.level_at >= reuse or level_rate <= 0 then
    -- The live members' demands (a member without one asks as much as it gets).
    local ids = redis.call('ZRANGE', seen, 0, -1)
    local ds = {}
    for from = 1, #ids, 500 do -- in chunks: `unpack` is bounded by Lua's C stack
      local to = math.min(from + 499, #ids)
      ok, raw = pcall(redis.call, 'HMGET', demand, unpack(ids, from, to))
      if not ok then return garbage(demand, 'another type') end
      for i = from, to do
        local d = -1
        if raw[i - from + 1] then d = tonumber(raw[i - from + 1]) end
        if d == nil or d ~= d or d > MAX_RATE or (d < 0 and d ~= -1) then
          return garbage(demand, 'an invalid demand')
        end
        if d < 0 then d = math.huge end
        ds[i] = d
      end
    end
    -- Members a lost state expects back, counted until they are (or for 2 heartbeats).
    if now < expect_until then
      for _ = #ds + 1, expect do ds[#ds + 1] = math.huge end
    end
    table.sort(ds)
    local count, remaining = #ds, rate
    level, spare = -1, 0
    for i = 1, count do
      local even = remaining / (count - i + 1)
      if ds[i] >= even then
        level = even
        break
      end
      remaining = remaining - ds[i]
    end
    if level < 0 and count > 0 then spare = remaining / count end
    level_rate = rate
    s.level_at = now
  end
  local scale = rate / level_rate
  local mine = want
  if mine < 0 then mine = math.huge end
  if level >= 0 and mine >= level then
    share = level * scale
  elseif level >= 0 then
    share = mine
  else
    share = (mine == math.huge and 0 or mine) + spare * scale
  end
end

local f = function(x) return string.format('%.17g', x) end
redis.call('HSET', state, 'on', on, 'cold', cold, 'ramp', ramp, 'wmax', f(wmax), 'tcut', f(tcut),
  'epoch', epoch, 'recover_until', f(recover_until), 'win_start', f(win_start),
  'win_count', win_count, 'win_throttles', win_throttles, 'measured', f(measured),
  'share', f(last_share), 'level', f(level), 'spare', f(spare),
  'level_rate', f(level_rate), 'level_at', f(s.level_at or now), 'expect', expect,
  'expect_until', f(expect_until))
for _, key in ipairs({state, seen, demand}) do redis.call('PEXPIRE', key, keep_ms) end
-- The rate the fleet was last cut from (CUBIC's w_max: its estimate of the capacity), for
-- members that lose Redis while the fleet probes above it.
local estimate = -1
if on == 1 then estimate = math.min(wmax, MAX_RATE) end
return {'ok', f(share), tostring(epoch), tostring(members), f(rate), f(now), f(estimate)}
