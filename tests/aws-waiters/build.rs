//! Declares two cfgs:
//! - `aws_waiters_full`: `RUSTFLAGS='--cfg aws_waiters_full' cargo test -p aws-waiters` compiles
//!   the waiters on the full output shapes (every member of every shape; about five times the
//!   compile time) instead of the pruned ones;
//! - `aws_waiters_smithy`, set here when `models/smithy/` holds the Smithy models
//!   `gen.py --smithy-models` copies there (they are not committed): the `oracle` test then
//!   also reads the waiters from them and compares them with botocore's.

use std::path::Path;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(aws_waiters_full)");
    println!("cargo::rustc-check-cfg=cfg(aws_waiters_smithy)");
    println!("cargo::rerun-if-changed=models/smithy");
    let smithy = Path::new("models/smithy");
    let has_models = std::fs::read_dir(smithy).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| e.path().extension().is_some_and(|x| x == "json"))
    });
    if has_models && Path::new("tests/oracle/smithy/mod.rs").exists() {
        println!("cargo::rustc-cfg=aws_waiters_smithy");
    }
}
