//! The resources and their eventually consistent lifecycle.

use std::collections::BTreeMap;
use std::time::Duration;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::model::{CreateResourceRequest, Member, Resource, ResourceStatus};

/// How long a resource stays `CREATING` or `DELETING`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Settle {
    /// A random time in `min..=max`, drawn from the service's seeded random source.
    After {
        /// Shortest time.
        min: Duration,
        /// Longest time.
        max: Duration,
    },
    /// Until this many reads (describe or list) have shown the transitional state: with
    /// `AfterReads(2)`, the first two reads see `CREATING` and the third sees `ACTIVE`.
    /// Exact, whatever the timing, for tests.
    AfterReads(u32),
    /// Only when the test says so ([`RunningService::settle`](super::RunningService::settle)).
    Manual,
}

/// An error the API answers with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// HTTP status.
    pub status: u16,
    /// Error code (`NotFound`...).
    pub code: &'static str,
    /// Message.
    pub message: String,
}

impl ApiError {
    fn not_found(name: &str) -> Self {
        Self {
            status: 404,
            code: "NotFound",
            message: format!("resource '{name}' does not exist"),
        }
    }
}

#[derive(Debug)]
struct Entry {
    resource: Resource,
    generation: u64,
    reads_left: u32,
}

/// A transition the caller must schedule: settle `name` after `delay` if it is still at
/// `generation`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Timer {
    pub name: String,
    pub generation: u64,
    pub delay: Duration,
}

#[derive(Debug)]
pub(crate) struct Store {
    entries: BTreeMap<String, Entry>,
    rng: StdRng,
    settle: Settle,
    fail_prefix: String,
    generations: u64,
}

impl Store {
    pub(crate) fn new(seed: u64, settle: Settle, fail_prefix: String) -> Self {
        Self {
            entries: BTreeMap::new(),
            rng: StdRng::seed_from_u64(seed),
            settle,
            fail_prefix,
            generations: 0,
        }
    }

    fn begin_transition(&mut self, name: &str) -> (u64, u32, Option<Timer>) {
        self.generations += 1;
        let generation = self.generations;
        match self.settle {
            Settle::After { min, max } => {
                let delay = if max > min {
                    self.rng.random_range(min..=max)
                } else {
                    min
                };
                (
                    generation,
                    0,
                    Some(Timer {
                        name: name.to_owned(),
                        generation,
                        delay,
                    }),
                )
            }
            Settle::AfterReads(n) => (generation, n, None),
            Settle::Manual => (generation, 0, None),
        }
    }

    pub(crate) fn create(
        &mut self,
        req: CreateResourceRequest,
    ) -> Result<(Resource, Option<Timer>), ApiError> {
        validate_name(&req.name)?;
        for m in &req.members {
            validate_name(&m.name)?;
        }
        if self.entries.contains_key(&req.name) {
            return Err(ApiError {
                status: 409,
                code: "ResourceInUseException",
                message: format!("resource '{}' already exists", req.name),
            });
        }
        let (generation, reads_left, timer) = self.begin_transition(&req.name);
        let resource = Resource {
            name: req.name.clone(),
            status: ResourceStatus::Creating,
            status_reason: None,
            members: req
                .members
                .into_iter()
                .map(|m| Member {
                    name: m.name,
                    role: m.role,
                    status: "JOINING".to_owned(),
                })
                .collect(),
        };
        self.entries.insert(
            req.name,
            Entry {
                resource: resource.clone(),
                generation,
                reads_left,
            },
        );
        Ok((resource, timer))
    }

    pub(crate) fn delete(&mut self, name: &str) -> Result<(Resource, Option<Timer>), ApiError> {
        let status = self
            .entries
            .get(name)
            .ok_or_else(|| ApiError::not_found(name))?
            .resource
            .status;
        if status == ResourceStatus::Deleting {
            return Ok((self.entries[name].resource.clone(), None));
        }
        let (generation, reads_left, timer) = self.begin_transition(name);
        let entry = self.entries.get_mut(name).expect("checked above");
        entry.resource.status = ResourceStatus::Deleting;
        entry.resource.status_reason = None;
        entry.generation = generation;
        entry.reads_left = reads_left;
        Ok((entry.resource.clone(), timer))
    }

    /// Moves `name` out of its transitional state if it is still at `generation` (any
    /// generation when `None`). Returns whether anything changed.
    pub(crate) fn settle(&mut self, name: &str, generation: Option<u64>) -> bool {
        let Some(entry) = self.entries.get_mut(name) else {
            return false;
        };
        if generation.is_some_and(|g| g != entry.generation) {
            return false;
        }
        match entry.resource.status {
            ResourceStatus::Creating => {
                let failed = !self.fail_prefix.is_empty() && name.starts_with(&self.fail_prefix);
                let (status, member_status) = if failed {
                    entry.resource.status_reason = Some(format!(
                        "provisioning failed: names starting with '{}' are rejected",
                        self.fail_prefix
                    ));
                    (ResourceStatus::Failed, "FAILED")
                } else {
                    (ResourceStatus::Active, "ACTIVE")
                };
                entry.resource.status = status;
                for m in &mut entry.resource.members {
                    m.status = member_status.to_owned();
                }
                true
            }
            ResourceStatus::Deleting => {
                self.entries.remove(name);
                true
            }
            ResourceStatus::Active | ResourceStatus::Failed => false,
        }
    }

    /// One read of `name`: counts towards [`Settle::AfterReads`].
    fn read(&mut self, name: &str) -> Option<Resource> {
        let entry = self.entries.get_mut(name)?;
        let transitional = matches!(
            entry.resource.status,
            ResourceStatus::Creating | ResourceStatus::Deleting
        );
        if transitional && matches!(self.settle, Settle::AfterReads(_)) {
            if entry.reads_left == 0 {
                self.settle(name, None);
            } else {
                entry.reads_left -= 1;
            }
        }
        self.entries.get(name).map(|e| e.resource.clone())
    }

    pub(crate) fn describe(&mut self, name: &str) -> Result<Resource, ApiError> {
        self.read(name).ok_or_else(|| ApiError::not_found(name))
    }

    /// Resources whose name starts with `prefix` (and is among `only`, if given), sorted by name.
    pub(crate) fn list(&mut self, prefix: &str, only: Option<&[&str]>) -> Vec<Resource> {
        let names: Vec<String> = self
            .entries
            .keys()
            .filter(|n| n.starts_with(prefix) && only.is_none_or(|only| only.contains(&n.as_str())))
            .cloned()
            .collect();
        names.iter().filter_map(|n| self.read(n)).collect()
    }

    /// The resource as it is, without counting a read.
    pub(crate) fn peek(&self, name: &str) -> Option<Resource> {
        self.entries.get(name).map(|e| e.resource.clone())
    }
}

fn validate_name(name: &str) -> Result<(), ApiError> {
    let ok = !name.is_empty()
        && name.len() <= 63
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if ok {
        Ok(())
    } else {
        Err(ApiError {
            status: 400,
            code: "ValidationException",
            message: format!(
                "invalid name '{name}': use 1 to 63 characters among a-z, 0-9 and '-'"
            ),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::model::MemberSpec;

    fn req(name: &str, members: &[&str]) -> CreateResourceRequest {
        CreateResourceRequest {
            name: name.to_owned(),
            members: members
                .iter()
                .map(|m| MemberSpec {
                    name: (*m).to_owned(),
                    role: "replica".into(),
                })
                .collect(),
        }
    }

    #[test]
    fn after_reads_settles_on_the_read_after_n() {
        let mut store = Store::new(1, Settle::AfterReads(2), "fail-".into());
        let (created, timer) = store.create(req("a", &["m1", "m2"])).unwrap();
        assert_eq!(timer, None);
        assert_eq!(created.status, ResourceStatus::Creating);
        assert!(created.members.iter().all(|m| m.status == "JOINING"));
        assert_eq!(
            store.describe("a").unwrap().status,
            ResourceStatus::Creating
        );
        assert_eq!(
            store.list("", None).pop().unwrap().status,
            ResourceStatus::Creating
        );
        let active = store.describe("a").unwrap();
        assert_eq!(active.status, ResourceStatus::Active);
        assert!(active.members.iter().all(|m| m.status == "ACTIVE"));

        store.delete("a").unwrap();
        assert_eq!(
            store.describe("a").unwrap().status,
            ResourceStatus::Deleting
        );
        assert_eq!(
            store.describe("a").unwrap().status,
            ResourceStatus::Deleting
        );
        let gone = store.describe("a").unwrap_err();
        assert_eq!((gone.status, gone.code), (404, "NotFound"));
    }

    #[test]
    fn failing_names_fail_with_a_reason() {
        let mut store = Store::new(1, Settle::Manual, "fail-".into());
        store.create(req("fail-x", &["m"])).unwrap();
        assert!(store.settle("fail-x", None));
        let r = store.describe("fail-x").unwrap();
        assert_eq!(r.status, ResourceStatus::Failed);
        assert!(r.status_reason.unwrap().starts_with("provisioning failed"));
        assert_eq!(r.members[0].status, "FAILED");
        assert!(!store.settle("fail-x", None), "FAILED is terminal");
    }

    #[test]
    fn random_delays_are_seeded_and_bounded() {
        let settle = Settle::After {
            min: Duration::from_millis(10),
            max: Duration::from_millis(50),
        };
        let delays = |seed| {
            let mut store = Store::new(seed, settle.clone(), String::new());
            (0..20)
                .map(|i| {
                    store
                        .create(req(&format!("r{i}"), &[]))
                        .unwrap()
                        .1
                        .unwrap()
                        .delay
                })
                .collect::<Vec<_>>()
        };
        let a = delays(42);
        assert_eq!(a, delays(42));
        assert_ne!(a, delays(43));
        assert!(
            a.iter()
                .all(|d| *d >= Duration::from_millis(10) && *d <= Duration::from_millis(50))
        );
    }

    #[test]
    fn stale_timers_do_nothing() {
        let settle = Settle::After {
            min: Duration::from_millis(1),
            max: Duration::from_millis(1),
        };
        let mut store = Store::new(1, settle, String::new());
        let create_timer = store.create(req("a", &[])).unwrap().1.unwrap();
        let delete_timer = store.delete("a").unwrap().1.unwrap();
        assert!(
            !store.settle("a", Some(create_timer.generation)),
            "deleted meanwhile"
        );
        assert_eq!(store.peek("a").unwrap().status, ResourceStatus::Deleting);
        assert!(store.settle("a", Some(delete_timer.generation)));
        assert_eq!(store.peek("a"), None);
    }

    #[test]
    fn errors_have_codes() {
        let mut store = Store::new(1, Settle::Manual, String::new());
        assert_eq!(
            store.create(req("Bad Name", &[])).unwrap_err().code,
            "ValidationException"
        );
        store.create(req("a", &[])).unwrap();
        assert_eq!(store.create(req("a", &[])).unwrap_err().status, 409);
        assert_eq!(store.delete("nope").unwrap_err().code, "NotFound");
        let (again, timer) = {
            store.delete("a").unwrap();
            store.delete("a").unwrap()
        };
        assert_eq!(
            (again.status, timer),
            (ResourceStatus::Deleting, None),
            "delete is idempotent"
        );
    }

    #[test]
    fn list_filters_by_prefix_sorted() {
        let mut store = Store::new(1, Settle::Manual, String::new());
        for n in ["web-b", "db-a", "web-a"] {
            store.create(req(n, &[])).unwrap();
        }
        let names: Vec<_> = store
            .list("web-", None)
            .into_iter()
            .map(|r| r.name)
            .collect();
        assert_eq!(names, ["web-a", "web-b"]);
        let names: Vec<_> = store
            .list("", Some(&["web-b", "db-a", "nope"]))
            .into_iter()
            .map(|r| r.name)
            .collect();
        assert_eq!(names, ["db-a", "web-b"]);
    }
}
