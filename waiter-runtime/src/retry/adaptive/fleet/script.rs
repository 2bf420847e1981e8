//! The fleet's controller as Redis runs it (`controller.lua`): its keys, what a member's round
//! sends, and what it answers, checked before anything is believed.

use std::time::Duration;

/// The script (Lua 5.1, Redis's and Valkey's).
pub(super) const SOURCE: &str = include_str!("controller.lua");

/// The controller's constants, sent with every round (the script has none of its own).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Constants {
    /// CUBIC's multiplicative decrease: a cut sets the rate to `beta x` what the service
    /// admitted.
    pub(super) beta: f64,
    /// CUBIC's scale constant, relative to the rate before the last cut (per s^3).
    pub(super) scale: f64,
    /// A member whose last round is older than this is gone.
    pub(super) expiry: Duration,
    /// After a cut, throttles start no new event for this long (on Redis's clock).
    pub(super) recovery: Duration,
    /// Every key of the fleet expires after this long without a round.
    pub(super) keep: Duration,
    /// The fleet's sending rate is counted over windows this long...
    pub(super) window: Duration,
    /// ... and smoothed with this weight of the newest window.
    pub(super) smoothing: f64,
    /// The fleet's rate never exceeds this multiple of its measured sending rate...
    pub(super) cap: f64,
    /// ... and never goes under this many requests/s per member.
    pub(super) floor: f64,
    /// A fair split is reused this long unless the fleet changed (a cut, a member in or out).
    pub(super) reuse: Duration,
    /// After the fleet's first cut, the rate doubles this often until the next cut.
    pub(super) doubling: Duration,
}

/// The constants every member sends (see BENCHMARKS.md, "A fleet sharing one limiter", for
/// how they were chosen).
pub(super) const CONSTANTS: Constants = Constants {
    beta: 0.9,
    scale: 0.02,
    expiry: Duration::from_secs(1),
    recovery: Duration::from_millis(500),
    keep: Duration::from_secs(600),
    window: Duration::from_millis(500),
    smoothing: 0.8,
    cap: 2.0,
    floor: 0.5,
    reuse: Duration::from_millis(100),
    doubling: Duration::from_millis(500),
};

/// The fleet's three keys: `waiter:{<fleet>}:state`, `:seen` and `:demand` (the name in
/// braces is their Redis Cluster hash tag: one slot for the three).
pub(super) fn keys(fleet: &str) -> [String; 3] {
    ["state", "seen", "demand"].map(|what| format!("waiter:{{{fleet}}}:{what}"))
}

/// What a round does: a member's report (and heartbeat), or its goodbye.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Op {
    Sync,
    Leave,
}

/// What a member reports in a round.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Report {
    pub(super) op: Op,
    /// The epoch (count of the fleet's cuts) the member's fresh throttles were sent in.
    pub(super) epoch: u64,
    /// Responses since its last delivered round, throttles among them, and those throttles
    /// of requests sent in `epoch` (which may start a congestion event).
    pub(super) responses: u64,
    pub(super) throttles: u64,
    pub(super) fresh: u64,
    /// The rate it asks for, requests/s; `None`: as much as it gets (its callers waited).
    pub(super) demand: Option<f64>,
    /// The highest fleet rate it knew over its last 5 to 10 s (0: none) and its members at
    /// the last round, for a state lost with Redis's data.
    pub(super) hint: f64,
    pub(super) hint_members: u64,
}

impl Report {
    /// The script's `ARGV`, after the member's id.
    pub(super) fn args(&self, member: &str) -> Vec<String> {
        let c = CONSTANTS;
        let num = |x: f64| format!("{x:?}");
        vec![
            match self.op {
                Op::Sync => "sync",
                Op::Leave => "leave",
            }
            .to_owned(),
            member.to_owned(),
            self.epoch.to_string(),
            self.responses.to_string(),
            self.throttles.to_string(),
            self.fresh.to_string(),
            self.demand.map_or("-1".to_owned(), num),
            num(self.hint),
            num(c.beta),
            num(c.scale),
            num(c.expiry.as_secs_f64()),
            num(c.recovery.as_secs_f64()),
            c.keep.as_millis().to_string(),
            num(c.window.as_secs_f64()),
            num(c.smoothing),
            num(c.cap),
            num(c.floor),
            num(c.reuse.as_secs_f64()),
            num(c.doubling.as_secs_f64()),
            self.hint_members.to_string(),
        ]
    }
}

/// The largest rate, epoch and member count believed from Redis.
const MAX_RATE: f64 = 1e9;
const MAX_EPOCH: u64 = 1 << 53;

/// What the controller answered, checked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Reply {
    /// The member's share, requests/s; `None`: no limit (no fleet congestion event yet).
    pub(super) share: Option<f64>,
    /// The count of the fleet's cuts so far: the mark of the requests sent from now on.
    pub(super) epoch: u64,
    /// Members with a live heartbeat.
    pub(super) members: u64,
    /// The fleet's rate, requests/s; `None`: no limit.
    pub(super) rate: Option<f64>,
    /// The rate the fleet was last cut from (CUBIC's `w_max`, the fleet's estimate of the
    /// capacity), requests/s; `None`: no limit. Above it, the fleet is probing.
    pub(super) last_cut_from: Option<f64>,
}

impl Reply {
    /// Reads the script's reply: seven strings, `"ok"`, then numbers in their ranges. Anything
    /// else (another shape, NaN, a negative or a huge number, another type) is an error: the
    /// round counts as one Redis did not answer.
    pub(super) fn parse(value: &redis::Value) -> Result<Reply, String> {
        let redis::Value::Array(items) = value else {
            return Err(format!("a reply of another shape ({})", kind(value)));
        };
        let texts: Vec<&str> = items
            .iter()
            .map(|item| match item {
                redis::Value::BulkString(bytes) => std::str::from_utf8(bytes).ok(),
                redis::Value::SimpleString(text) => Some(text.as_str()),
                _ => None,
            })
            .collect::<Option<_>>()
            .ok_or_else(|| "a reply with an item that is not text".to_owned())?;
        let [ok, share, epoch, members, rate, _time, last_cut_from] = texts[..] else {
            return Err(format!("a reply of {} items, not 7", texts.len()));
        };
        if ok != "ok" {
            return Err("a reply that is not \"ok\"".to_owned());
        }
        let rate_of = |what: &str, text: &str| -> Result<Option<f64>, String> {
            match text.parse::<f64>() {
                Ok(-1.0) => Ok(None),
                Ok(x) if (0.0..=MAX_RATE).contains(&x) => Ok(Some(x)),
                _ => Err(format!("an invalid {what}")),
            }
        };
        let count_of = |what: &str, text: &str, max: u64| match text.parse::<u64>() {
            Ok(n) if n <= max => Ok(n),
            _ => Err(format!("an invalid {what}")),
        };
        let reply = Reply {
            share: rate_of("share", share)?,
            epoch: count_of("epoch", epoch, MAX_EPOCH)?,
            members: count_of("member count", members, 1 << 32)?,
            rate: rate_of("fleet rate", rate)?,
            last_cut_from: rate_of("last cut's rate", last_cut_from)?,
        };
        if reply.share.is_some() != reply.rate.is_some()
            || reply.rate.is_some() != reply.last_cut_from.is_some()
        {
            return Err("a share without a fleet rate".to_owned());
        }
        Ok(reply)
    }
}

/// The kind of a value, for messages (never its content).
fn kind(value: &redis::Value) -> &'static str {
    match value {
        redis::Value::Nil => "nil",
        redis::Value::Int(_) => "an integer",
        redis::Value::BulkString(_) | redis::Value::SimpleString(_) => "a string",
        redis::Value::Okay => "OK",
        redis::Value::Double(_) => "a double",
        _ => "another type",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use redis::Value;

    fn reply(items: &[&str]) -> Value {
        Value::Array(
            items
                .iter()
                .map(|s| Value::BulkString(s.as_bytes().to_vec()))
                .collect(),
        )
    }

    #[test]
    fn a_reply_is_believed_only_in_range() {
        let good = ["ok", "12.5", "3", "10", "125", "1700000000.5", "120"];
        assert_eq!(
            Reply::parse(&reply(&good)),
            Ok(Reply {
                share: Some(12.5),
                epoch: 3,
                members: 10,
                rate: Some(125.0),
                last_cut_from: Some(120.0),
            })
        );
        let off = reply(&["ok", "-1", "0", "1", "-1", "1", "-1"]);
        assert_eq!(Reply::parse(&off).unwrap().share, None);
        // The good reply with one item changed.
        let changed = [
            (0, "no"),
            (1, "nan"),
            (1, "NaN"),
            (1, "-3"),
            (1, "inf"),
            (1, "1e300"),
            (1, "-1"), // no limit, with a fleet rate
            (2, "-1"),
            (2, "3.5"),
            (4, "-1"),
            (6, "-1"),
            (6, "nan"),
            (6, "1e300"),
        ];
        let bad_items = changed.into_iter().map(|(i, text)| {
            let mut items = good;
            items[i] = text;
            reply(&items)
        });
        let bad_shapes = [
            // No limit, with a last cut's rate.
            reply(&["ok", "-1", "0", "1", "-1", "1", "120"]),
            reply(&good[..6]),
            reply(&[&good[..], &["1"]].concat()),
            Value::Int(7),
            Value::Nil,
            Value::Okay,
            Value::Array(vec![Value::Int(1); 7]),
        ];
        for bad in bad_items.chain(bad_shapes) {
            assert!(Reply::parse(&bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_keys_share_one_hash_tag() {
        assert_eq!(
            keys("orders"),
            [
                "waiter:{orders}:state",
                "waiter:{orders}:seen",
                "waiter:{orders}:demand"
            ]
        );
    }
}
