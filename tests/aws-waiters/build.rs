//! Declares the `aws_waiters_full` cfg: `RUSTFLAGS='--cfg aws_waiters_full' cargo test -p
//! aws-waiters` compiles the waiters on the full output shapes (every member of every shape;
//! about five times the compile time) instead of the pruned ones.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(aws_waiters_full)");
}
