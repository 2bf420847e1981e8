//! JMESPath compiled into Rust at macro time, evaluated over borrowed data.
//!
//! [`jmespath!`](crate::jmespath!) parses an expression while your code compiles, checks it
//! (syntax, function names, arities, argument types known statically) and emits Rust code that
//! walks your data. Nothing is parsed at run time, and evaluation borrows: a path that reads one
//! field does not look at, or convert, the rest of the data.
//!
//! ```
//! use serde_json::json;
//! use waiter_runtime::jmespath;
//!
//! let data = json!({"people": [{"name": "a", "age": 30}, {"name": "b", "age": 50}]});
//! let older = jmespath!("people[?age > `40`].name | [0]");
//! assert_eq!(older.search(&data).unwrap(), json!("b"));
//! ```
//!
//! A mistake is a compile error pointing at the string, with the column in the message:
//!
//! ```compile_fail
//! let e = waiter_runtime::jmespath!("length(a, b)"); // length() takes 1 argument
//! ```
//!
//! # What can be searched
//!
//! Anything implementing [`Searchable`]:
//! * `serde_json::Value`, as is;
//! * your own structs and enums with `#[derive(Searchable)]`, which follows the Smithy data model
//!   (see the table on [`Searchable`]) and names members as serde would put them on the wire
//!   (`#[serde(rename = ..)]`, `#[serde(rename_all = ..)]`), unless the model's names differ
//!   from the wire's: `#[searchable(rename = ..)]` and `#[searchable(rename_all = ..)]` win
//!   (see [Deriving `Searchable`](#deriving-searchable));
//! * standard types: strings, numbers, `bool`, `Option`, `Vec`, slices, maps with string keys,
//!   `Box`, `Rc`, `Arc`, references, `SystemTime`;
//! * any `T: serde::Serialize` wrapped in [`Serialized`] (converted on each search);
//! * several values at once through [`InputOutput`] and [`Fields`].
//!
//! ```
//! use waiter_runtime::jmespath;
//! use waiter_runtime::jmespath::Searchable;
//!
//! #[derive(Searchable)]
//! #[serde(rename_all = "PascalCase")]
//! struct DescribeInstancesOutput { reservations: Vec<Reservation> }
//! #[derive(Searchable)]
//! #[serde(rename_all = "PascalCase")]
//! struct Reservation { instances: Vec<Instance> }
//! #[derive(Searchable)]
//! #[serde(rename_all = "PascalCase")]
//! struct Instance { instance_id: String, state: InstanceState }
//! #[derive(Searchable)]
//! struct InstanceState { #[serde(rename = "Name")] name: StateName }
//! #[derive(Searchable)]
//! #[searchable(rename_all = "kebab-case")]
//! enum StateName { Pending, Running, ShuttingDown }
//!
//! let output = DescribeInstancesOutput { reservations: vec![Reservation { instances: vec![
//!     Instance { instance_id: "i-1".into(), state: InstanceState { name: StateName::Running } },
//!     Instance { instance_id: "i-2".into(), state: InstanceState { name: StateName::ShuttingDown } },
//! ]}]};
//! let names = jmespath!("Reservations[].Instances[].State.Name").search(&output).unwrap();
//! assert_eq!(names, serde_json::json!(["running", "shutting-down"]));
//! ```
//!
//! # Deriving `Searchable`
//!
//! `#[derive(Searchable)]` reads serde's attributes so that paths use the names on the wire:
//!
//! | attribute | on | effect |
//! |---|---|---|
//! | `#[serde(rename = "X")]`, `#[searchable(rename = "X")]` | field, variant | member name `X` (ours wins) |
//! | `#[serde(rename_all = "..")]`, `#[searchable(rename_all = "..")]` | struct, enum, struct variant | serde's rules: `PascalCase`, `camelCase`, `kebab-case`... (ours wins over serde's, even over a member's `#[serde(rename)]`) |
//! | `#[serde(skip)]`, `#[serde(skip_serializing)]`, `#[searchable(skip)]` | field | not a member |
//! | `#[serde(flatten)]`, `#[searchable(flatten)]` | field | the field's members are members of the parent (a plain member of the same name wins, then the first flattened one: each name once) |
//! | `#[serde(untagged)]`, `#[searchable(untagged)]` | variant | the variant's value itself, not `{"Variant": value}` (an SDK's `Unknown(String)`) |
//! | `#[serde(transparent)]` | struct with one field that is not skipped | the field's value itself |
//! | `#[searchable(blob)]` | field of bytes | base64 string |
//! | `#[searchable(timestamp)]` | `SystemTime` field (or `Option`) | epoch seconds |
//! | `#[searchable(serde)]` | field of a foreign `Serialize` type | its JSON form |
//! | `#[searchable(with = path)]` | field | `path(&field) -> Node` |
//! | `#[searchable(crate = "path")]` | struct, enum | the runtime crate's path, when it is re-exported under another name |
//!
//! **Renames: serde names the wire, `searchable` the model.** When they differ (EC2's Query
//! protocol sends `reservationSet` where the Smithy model, and so every published waiter, says
//! `Reservations`), the derive's own attributes win over serde's at every level. A member's
//! name is, first to last: its own `#[searchable(rename)]`, its container's
//! `#[searchable(rename_all)]`, its own `#[serde(rename)]`, its container's
//! `#[serde(rename_all)]`, its Rust name (the container of a struct variant's fields is the
//! variant). So one `#[searchable(rename_all = "PascalCase")]` on a struct gives the model's
//! names to fields that serde renames for the wire:
//!
//! ```
//! use waiter_runtime::jmespath;
//! use waiter_runtime::jmespath::Searchable;
//!
//! #[derive(Searchable)]
//! #[searchable(rename_all = "PascalCase")]
//! struct DescribeInstancesOutput {
//!     #[serde(rename = "reservationSet")] // the wire (EC2's XML)
//!     reservations: Vec<Reservation>,
//! }
//! #[derive(Searchable)]
//! #[serde(rename_all = "camelCase")]
//! #[searchable(rename_all = "PascalCase")]
//! struct Reservation {
//!     #[serde(rename = "instancesSet")]
//!     instances: Vec<Instance>,
//!     owner_id: String, // `ownerId` on the wire, `OwnerId` in paths
//! }
//! #[derive(Searchable)]
//! #[searchable(rename_all = "PascalCase")]
//! struct Instance {
//!     #[serde(rename = "instanceId")]
//!     instance_id: String,
//!     #[serde(rename = "instanceState")]
//!     #[searchable(rename = "State")] // a member's own name wins over everything
//!     state_name: String,
//! }
//!
//! let output = DescribeInstancesOutput { reservations: vec![Reservation {
//!     instances: vec![Instance { instance_id: "i-1".into(), state_name: "running".into() }],
//!     owner_id: "123".into(),
//! }]};
//! let states = jmespath!("Reservations[].Instances[].State").search(&output).unwrap();
//! assert_eq!(states, serde_json::json!(["running"]));
//! let owner = jmespath!("Reservations[0].OwnerId").search(&output).unwrap();
//! assert_eq!(owner, serde_json::json!("123"));
//! ```
//!
//! Enums whose variants are all units search as strings, and so do typed paths check them, also
//! with an untagged string catch-all (`Unknown(String)`); other enums as Smithy unions (an object
//! with the one member that is set). Internally or adjacently tagged and untagged enums
//! (`#[serde(tag = ..)]`, `#[serde(untagged)]` on the enum) are rejected with a message: their
//! wire shape is not a Smithy shape. Type parameters used by searchable fields get a
//! `T: Searchable + Sync` bound (as serde does, parameters of skipped or converted fields get
//! none); structs are viewed in place, so they must be `Sync`.
//!
//! ```
//! use waiter_runtime::jmespath;
//! use waiter_runtime::jmespath::Searchable;
//!
//! #[derive(Searchable)]
//! enum Status {
//!     #[searchable(rename = "ACTIVE")]
//!     Active,
//!     #[serde(untagged)]
//!     Unknown(String),
//! }
//!
//! #[derive(Searchable)]
//! #[serde(rename_all = "camelCase")]
//! struct Output {
//!     table_status: Status,
//!     #[serde(skip)]
//!     _raw: Vec<u8>,
//! }
//!
//! let out = Output { table_status: Status::Unknown("ARCHIVED".into()), _raw: vec![] };
//! assert_eq!(jmespath!("tableStatus").search(&out).unwrap(), serde_json::json!("ARCHIVED"));
//! let out = Output { table_status: Status::Active, _raw: vec![] };
//! assert_eq!(jmespath!("keys(@)").search(&out).unwrap(), serde_json::json!(["tableStatus"]));
//! ```
#![doc = ""]
#![doc = include_str!("../docs/jmespath.md")]

pub mod data_model;
pub(crate) mod derive_support;
mod error;
pub(crate) mod eval;
pub(crate) mod expression;
mod impls_std;
mod input_output;
mod node;
mod serialized;
pub(crate) mod view;
mod walk;

pub use error::SearchError;
pub use expression::Expression;
pub use input_output::{Fields, InputOutput};
pub use serialized::Serialized;
pub use view::{Array, Node, Object, SearchArray, SearchObject, Searchable};

/// Derives [`Searchable`] (trait) for a struct or enum; see the trait for the data model.
pub use waiter_macros::Searchable;
