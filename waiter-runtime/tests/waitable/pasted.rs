//! What users paste from Smithy models compiles as is: the `@waitable( .. )` wrapper of the
//! IDL, the `"smithy.waiters#waitable"` key of the JSON AST, unquoted shape IDs as strings,
//! text blocks, and the `crate = ".."` option for a runtime re-exported under another name.

use std::time::Duration;

use waiter_runtime::{ProvideErrorMetadata, Searchable, Waiter, waitable};

#[derive(Debug, PartialEq, ProvideErrorMetadata)]
enum Error {
    OhNo,
    NotFound,
}

#[derive(Debug, Searchable)]
struct Thing {
    status: String,
}

struct Client {
    status: &'static str,
    error: Option<fn() -> Error>,
}

impl Client {
    async fn reply(&self) -> Result<Thing, Error> {
        match self.error {
            Some(e) => Err(e()),
            None => Ok(Thing {
                status: self.status.to_owned(),
            }),
        }
    }

    /// The IDL form as Smithy's own test models write it: `@waitable( .. )`, bare keys, no
    /// commas, unquoted shape IDs (`state: success`, `errorType: OhNo`) and a text block.
    #[waitable(@waitable(
        ThingReady: {
            documentation: """
                Waits until the thing is ready.
                  Indented line kept.
                """
            acceptors: [
                { state: success matcher: { output: { path: "status" expected: "ready" comparator: stringEquals } } }
                { state: failure matcher: { errorType: OhNo } }
            ]
        }
    ))]
    async fn get_thing(&self) -> Result<Thing, Error> {
        self.reply().await
    }

    /// The JSON AST form, with the trait's key.
    #[waitable("smithy.waiters#waitable": {
        "ThingGone": { "acceptors": [ { "state": "success", "matcher": { "errorType": "NotFound" } } ] }
    })]
    async fn head_thing(&self) -> Result<Thing, Error> {
        self.reply().await
    }
}

mod renamed {
    //! A crate that re-exports the runtime under another name points the macros at it.
    pub use waiter_runtime as rt;

    use super::{Error, Thing};

    /// `#[searchable(crate = "..")]` and `jmespath!(crate = "..", "..")` too.
    #[derive(rt::Searchable)]
    #[searchable(crate = "rt")]
    pub struct Named {
        pub name: String,
    }

    pub fn name_of(n: &Named) -> String {
        rt::jmespath!(crate = "rt", "name")
            .search_value(n)
            .unwrap()
            .as_str()
            .unwrap()
            .to_owned()
    }

    #[rt::waitable(crate = "rt", Quick: { acceptors: [{ state: "success", matcher: { output: {
        path: "status", expected: "ok", comparator: "stringEquals" } } }] })]
    pub async fn quick(name: String) -> Result<Thing, Error> {
        Ok(Thing { status: name })
    }
}

/// A method without a visibility has no `<NAME>_WAITER` const (it could be a trait impl's):
/// its waiter carries the metadata.
#[test]
fn text_blocks_lose_their_incidental_indentation() {
    let client = Client {
        status: "ready",
        error: None,
    };
    assert_eq!(
        client.wait_until_thing_ready().metadata().documentation,
        Some("Waits until the thing is ready.\n  Indented line kept.\n")
    );
}

#[tokio::test(start_paused = true)]
async fn shape_ids_are_strings() {
    let ready = Client {
        status: "ready",
        error: None,
    };
    let waiter: Waiter<'_, Thing, Error> = ready.wait_until_thing_ready();
    assert!(waiter.wait(Duration::from_secs(10)).await.is_ok());
    let broken = Client {
        status: "",
        error: Some(|| Error::OhNo),
    };
    let err = broken
        .wait_until_thing_ready()
        .wait(Duration::from_secs(10))
        .await
        .unwrap_err();
    assert!(matches!(
        err,
        waiter_runtime::WaiterError::FailureState { acceptor: 1, .. }
    ));
    let gone = Client {
        status: "",
        error: Some(|| Error::NotFound),
    };
    assert!(
        gone.wait_until_thing_gone()
            .wait(Duration::from_secs(10))
            .await
            .is_ok()
    );
}

#[tokio::test(start_paused = true)]
async fn the_crate_option_names_the_runtime() {
    let named = renamed::Named { name: "n".into() };
    assert_eq!(renamed::name_of(&named), "n");
    let done = renamed::wait_until_quick("ok".to_owned())
        .wait(Duration::from_secs(1))
        .await
        .unwrap();
    assert_eq!(done.output().unwrap().status, "ok");
}
