//! Real AWS waiters, pasted as the AWS Smithy models publish them (`smithy.waiters#waitable`,
//! JSON AST), on hand-written client methods whose outputs are modelled on the AWS shapes: wire
//! names through serde renames, `Option` for optional members, lists, maps, unit enums,
//! numbers, booleans and timestamps where the model has them. Each waiter must compile (its
//! paths are type-checked against those outputs) and drive a poll against canned data.
//!
//! The hand-written side of this crate's `oracle` test, which compiles every waiter botocore
//! ships on generated outputs.

// The shapes are modelled faithfully: not every member or enum variant is built by a test.
#![allow(dead_code)]

mod acm;
mod autoscaling;
mod cloudformation;
mod cloudfront;
mod dynamodb;
mod ec2_instances;
mod ec2_resources;
mod ecr;
mod ecs;
mod eks;
mod elb;
mod kinesis;
mod lambda;
mod rds;
mod redshift;
mod route53_iam_ses_cloudwatch_sagemaker;
mod s3;
mod ssm;
mod support;
