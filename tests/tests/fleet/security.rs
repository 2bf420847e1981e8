//! The password in the URL is used (ACL users) and never shown: not in `Debug`, logs or
//! errors. Fleet names that could leave their key namespace are refused.

use std::time::Duration;

use waiter_runtime::retry::adaptive::{FleetError, FleetRateLimiter};
use waiter_tests::redis_server::RedisServer;

use crate::support::{everything_logged, install, warnings, within};

const PASSWORD: &str = "s3cret-pw-1234";
const WRONG: &str = "wr0ng-pw-5678";

#[test]
fn an_acl_user_logs_in_through_the_url_and_its_password_is_never_shown() {
    let _one_at_a_time = crate::support::one_at_a_time();
    install();
    // The ACL the docs give: the scripting commands and those the script calls, on the
    // fleet's keys only.
    let password = format!(">{PASSWORD}");
    let mut args = vec![
        "--user", "default", "off", "--user", "fleet", "on", &password,
    ];
    args.extend([
        "~waiter:{acl}:*",
        "+evalsha",
        "+eval",
        "+time",
        "+hmget",
        "+hset",
        "+hdel",
    ]);
    args.extend([
        "+zadd",
        "+zrem",
        "+zrange",
        "+zrangebyscore",
        "+zcard",
        "+del",
        "+pexpire",
    ]);
    let redis = RedisServer::with_args(&args).unwrap();
    let url = |password: &str| format!("redis://fleet:{password}@127.0.0.1:{}/0", redis.port());
    let member = FleetRateLimiter::new(&url(PASSWORD), "acl").unwrap();
    within(
        Duration::from_secs(5),
        "leased",
        || member.status(),
        |s| s.leased,
    );
    let refused = FleetRateLimiter::new(&url(WRONG), "acl-refused").unwrap();
    within(
        Duration::from_secs(5),
        "refused",
        || refused.status(),
        |s| !s.leased && s.fallbacks == 1,
    );
    let no_user =
        FleetRateLimiter::new(&format!("redis://127.0.0.1:{}/0", redis.port()), "acl-none")
            .unwrap();
    within(
        Duration::from_secs(5),
        "refused",
        || no_user.status(),
        |s| s.fallbacks == 1,
    );
    let shown = format!("{member:?} {refused:?} {:?}", warnings("acl-refused"));
    assert!(shown.contains("fleet:***@127.0.0.1"), "{shown}");
    let bad_urls = [
        format!("redis://fleet:{PASSWORD}@127.0.0.1:notaport/0"),
        format!("redis://fleet:{PASSWORD}@127.0.0.1:6379/notadb"),
        format!("http://fleet:{PASSWORD}@127.0.0.1:6379"),
        format!("redis://fleet:{PASSWORD}@[::1"),
    ];
    let mut errors = String::new();
    for bad in &bad_urls {
        let err = FleetRateLimiter::new(bad, "acl").unwrap_err();
        assert!(
            matches!(err, FleetError::InvalidUrl { .. }),
            "{bad}: {err:?}"
        );
        errors.push_str(&format!("{err} {err:?} "));
    }
    drop((member, refused, no_user));
    std::thread::sleep(Duration::from_millis(300)); // the goodbyes, logged too
    let everything = format!("{shown} {errors} {}", everything_logged());
    for secret in [PASSWORD, WRONG] {
        assert!(
            !everything.contains(secret),
            "{secret} shown in: {everything}"
        );
    }
    assert!(
        everything.contains("WRONGPASS") || everything.contains("auth"),
        "{everything}"
    );
}

#[test]
fn fleet_names_that_could_leave_their_namespace_are_refused() {
    let url = "redis://127.0.0.1:6379/0";
    let long = "x".repeat(201);
    for (name, expected) in [
        ("", FleetError::EmptyName),
        (long.as_str(), FleetError::NameTooLong { len: 201 }),
        ("a\tb", FleetError::ControlCharacter { at: 1 }),
        (
            "a{b",
            FleetError::ReservedCharacter {
                character: '{',
                at: 1,
            },
        ),
        (
            "a}b",
            FleetError::ReservedCharacter {
                character: '}',
                at: 1,
            },
        ),
        (
            "a*",
            FleetError::ReservedCharacter {
                character: '*',
                at: 1,
            },
        ),
    ] {
        let err = FleetRateLimiter::new(url, name).unwrap_err();
        assert_eq!(err, expected);
        let text = err.to_string();
        assert!(text.contains("fleet's name"), "{text}");
        let _: &dyn std::error::Error = &err;
    }
    assert!(FleetRateLimiter::new(url, &"x".repeat(200)).is_ok());
}
