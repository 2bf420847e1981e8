//! What [`FleetRateLimiter::new`](super::FleetRateLimiter::new) checks: the fleet's name (it
//! becomes part of Redis keys) and the Redis URL; [`FleetError`]; the URL as it may be shown
//! (no password).

use std::fmt;

/// The longest fleet name, in bytes.
pub(super) const MAX_NAME: usize = 200;

/// Why [`FleetRateLimiter::new`](super::FleetRateLimiter::new) refused its arguments. Nothing
/// here ever holds the URL's password.
///
/// ```
/// use waiter_runtime::retry::adaptive::{FleetError, FleetRateLimiter};
///
/// let err = FleetRateLimiter::new("redis://127.0.0.1:6379", "orders{eu}").unwrap_err();
/// assert_eq!(err, FleetError::ReservedCharacter { character: '{', at: 6 });
/// assert!(err.to_string().contains("'{'"));
///
/// let err = FleetRateLimiter::new("http://:hunter2@cache:6379", "orders").unwrap_err();
/// assert!(matches!(err, FleetError::InvalidUrl { .. }));
/// assert!(!format!("{err} {err:?}").contains("hunter2"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FleetError {
    /// The fleet's name is empty.
    EmptyName,
    /// The fleet's name is longer than 200 bytes.
    NameTooLong {
        /// Its length in bytes.
        len: usize,
    },
    /// The fleet's name has a control character (a newline, a tab, `\0`...).
    ControlCharacter {
        /// Its byte offset in the name.
        at: usize,
    },
    /// The fleet's name has `{`, `}` (Redis Cluster's hash tags: the name is the tag that keeps
    /// a fleet's keys on one node) or `*` (a key pattern).
    ReservedCharacter {
        /// The character.
        character: char,
        /// Its byte offset in the name.
        at: usize,
    },
    /// The Redis URL does not parse, or is not a Redis URL.
    InvalidUrl {
        /// What is wrong with it (the URL's password is never part of it).
        reason: String,
    },
}

impl fmt::Display for FleetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FleetError::EmptyName => f.write_str(
                "the fleet's name is empty: name the fleet (its Redis keys are named after it)",
            ),
            FleetError::NameTooLong { len } => write!(
                f,
                "the fleet's name is {len} bytes long: at most {MAX_NAME} (it is part of every Redis key of the fleet)"
            ),
            FleetError::ControlCharacter { at } => write!(
                f,
                "the fleet's name has a control character at byte {at}: use printable characters (it is part of Redis keys)"
            ),
            FleetError::ReservedCharacter { character, at } => write!(
                f,
                "the fleet's name has '{character}' at byte {at}: '{{', '}}' and '*' are reserved (the name is the Redis Cluster hash tag of the fleet's keys, and '*' a key pattern)"
            ),
            FleetError::InvalidUrl { reason } => write!(
                f,
                "the Redis URL is not valid: {reason} (expected redis://[user:password@]host[:port][/db] or rediss:// for TLS)"
            ),
        }
    }
}

impl std::error::Error for FleetError {}

/// Checks a fleet's name: 1 to 200 bytes, no control character, no `{`, `}` or `*`.
pub(super) fn check_name(name: &str) -> Result<(), FleetError> {
    if name.is_empty() {
        return Err(FleetError::EmptyName);
    }
    if name.len() > MAX_NAME {
        return Err(FleetError::NameTooLong { len: name.len() });
    }
    for (at, character) in name.char_indices() {
        if character.is_control() {
            return Err(FleetError::ControlCharacter { at });
        }
        if matches!(character, '{' | '}' | '*') {
            return Err(FleetError::ReservedCharacter { character, at });
        }
    }
    Ok(())
}

/// The URL parsed, with what may be shown of it and the password to keep out of messages.
pub(super) struct Target {
    pub(super) info: redis::ConnectionInfo,
    /// `redis://user:***@host:port/db`: the URL without its password.
    pub(super) shown: String,
    /// The password, to scrub from the text of the client's errors (never shown).
    pub(super) secret: Option<String>,
}

/// Parses a Redis URL (`redis://`, `rediss://`, `redis+unix://`, `unix://`).
pub(super) fn parse_url(url: &str) -> Result<Target, FleetError> {
    let scheme = url.split_once("://").map(|(scheme, _)| scheme);
    if !matches!(
        scheme,
        Some("redis" | "rediss" | "valkey" | "valkeys" | "redis+unix" | "unix")
    ) {
        return Err(FleetError::InvalidUrl {
            reason: match scheme {
                Some(scheme) => format!("the scheme {:?} is not a Redis scheme", scrub_all(scheme)),
                None => "no scheme".to_owned(),
            },
        });
    }
    let info = redis::IntoConnectionInfo::into_connection_info(url).map_err(|err| {
        FleetError::InvalidUrl {
            reason: scrub(&err.to_string(), secret_of(url).as_deref()),
        }
    })?;
    let settings = info.redis_settings();
    let secret = settings.password().map(str::to_owned);
    let user = match (settings.username(), secret.is_some()) {
        (Some(user), true) => format!("{user}:***@"),
        (Some(user), false) => format!("{user}@"),
        (None, true) => ":***@".to_owned(),
        (None, false) => String::new(),
    };
    let shown = match info.addr() {
        redis::ConnectionAddr::Tcp(host, port) => {
            format!("redis://{user}{host}:{port}/{}", settings.db())
        }
        redis::ConnectionAddr::TcpTls { host, port, .. } => {
            format!("rediss://{user}{host}:{port}/{}", settings.db())
        }
        redis::ConnectionAddr::Unix(path) => {
            format!("unix://{user}{}?db={}", path.display(), settings.db())
        }
        _ => format!(
            "redis://{user}(an address of another kind)/{}",
            settings.db()
        ),
    };
    Ok(Target {
        shown: scrub(&shown, secret.as_deref()),
        info,
        secret,
    })
}

/// The password of a URL that the client could not parse, found by hand, to scrub it.
fn secret_of(url: &str) -> Option<String> {
    let rest = url.split_once("://")?.1;
    let authority = rest.split(['/', '?', '#']).next()?;
    let (userinfo, _) = authority.rsplit_once('@')?;
    let (_, password) = userinfo.split_once(':')?;
    (!password.is_empty()).then(|| password.to_owned())
}

/// `text` with every occurrence of `secret` replaced by `***`.
pub(super) fn scrub(text: &str, secret: Option<&str>) -> String {
    match secret {
        Some(secret) if !secret.is_empty() => text.replace(secret, "***"),
        _ => text.to_owned(),
    }
}

/// A piece of a URL shown in a message: at most 16 characters, control characters dropped.
fn scrub_all(text: &str) -> String {
    text.chars().filter(|c| !c.is_control()).take(16).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_could_leave_their_namespace_are_refused() {
        assert_eq!(check_name(""), Err(FleetError::EmptyName));
        assert_eq!(
            check_name(&"a".repeat(201)),
            Err(FleetError::NameTooLong { len: 201 })
        );
        assert!(check_name(&"a".repeat(200)).is_ok());
        assert_eq!(
            check_name("a\nb"),
            Err(FleetError::ControlCharacter { at: 1 })
        );
        assert_eq!(
            check_name("ab\u{7f}"),
            Err(FleetError::ControlCharacter { at: 2 })
        );
        for (name, character, at) in [("{a", '{', 0), ("a}", '}', 1), ("é*", '*', 2)] {
            assert_eq!(
                check_name(name),
                Err(FleetError::ReservedCharacter { character, at })
            );
        }
        assert!(check_name("orders:eu-west-1 (prod)").is_ok());
    }

    #[test]
    fn urls_are_shown_without_their_password() {
        let target = parse_url("redis://alice:s3cret@10.1.2.3:6380/2").unwrap();
        assert_eq!(target.shown, "redis://alice:***@10.1.2.3:6380/2");
        assert_eq!(target.secret.as_deref(), Some("s3cret"));
        let target = parse_url("rediss://:s3cret@cache.example").unwrap();
        assert_eq!(target.shown, "rediss://:***@cache.example:6379/0");
        let target = parse_url("redis://127.0.0.1").unwrap();
        assert_eq!(
            (target.shown.as_str(), target.secret),
            ("redis://127.0.0.1:6379/0", None)
        );
        for bad in [
            "127.0.0.1:6379",
            "http://u:s3cret@host",
            "redis://u:s3cret@host:notaport",
            "redis://u:s3cret@host:6379/notadb",
        ] {
            let err = parse_url(bad)
                .err()
                .unwrap_or_else(|| panic!("{bad} parsed"));
            let text = format!("{err} {err:?}");
            assert!(!text.contains("s3cret"), "{text}");
            assert!(matches!(err, FleetError::InvalidUrl { .. }), "{text}");
        }
    }
}
