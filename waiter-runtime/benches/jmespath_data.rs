//! The data of the JMESPath benchmarks (`jmespath_eval`, `jmespath_min`): an EC2-like
//! `DescribeInstances` output as derived structs, and the hand-written loops they are measured
//! against.

use std::sync::Arc;

use serde_json::Value;
use waiter_runtime::jmespath::Searchable;

#[derive(Searchable, serde::Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct DescribeInstancesOutput {
    pub reservations: Vec<Reservation>,
    pub next_token: Option<String>,
}

/// The same output with each reservation behind an `Arc` (forwarding pointers keep the
/// statically dispatched projection, or lose it).
#[derive(Searchable)]
#[serde(rename_all = "PascalCase")]
pub struct SharedOutput {
    pub reservations: Vec<Arc<Reservation>>,
}

#[derive(Searchable, serde::Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct Reservation {
    pub reservation_id: String,
    pub instances: Vec<Instance>,
}

#[derive(Searchable, serde::Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct Instance {
    pub instance_id: String,
    pub instance_type: String,
    pub image_id: String,
    pub state: InstanceState,
    pub tags: Vec<Tag>,
}

#[derive(Searchable, serde::Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct InstanceState {
    pub code: u16,
    pub name: StateName,
}

#[derive(Searchable, serde::Serialize, Clone, Copy)]
#[serde(rename_all = "kebab-case")]
pub enum StateName {
    Pending,
    Running,
}

#[derive(Searchable, serde::Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct Tag {
    pub key: String,
    pub value: String,
}

pub fn shared(o: DescribeInstancesOutput) -> SharedOutput {
    SharedOutput {
        reservations: o.reservations.into_iter().map(Arc::new).collect(),
    }
}

pub fn output(instances: usize) -> DescribeInstancesOutput {
    let per = 10;
    DescribeInstancesOutput {
        reservations: (0..instances.div_ceil(per))
            .map(|r| Reservation {
                reservation_id: format!("r-{r:08}"),
                instances: (0..per.min(instances - r * per))
                    .map(|i| Instance {
                        instance_id: format!("i-{r:04}{i:04}"),
                        instance_type: "m5.large".into(),
                        image_id: "ami-0123456789".into(),
                        state: InstanceState {
                            code: 16,
                            name: if i % 3 == 0 {
                                StateName::Pending
                            } else {
                                StateName::Running
                            },
                        },
                        tags: vec![Tag {
                            key: "Name".into(),
                            value: format!("node-{i}"),
                        }],
                    })
                    .collect(),
            })
            .collect(),
        next_token: Some("token".into()),
    }
}

/// What a user writes by hand over the derived structs.
pub fn hand_structs(o: &DescribeInstancesOutput) -> Vec<&'static str> {
    let mut out = Vec::new();
    for r in &o.reservations {
        for i in &r.instances {
            out.push(match i.state.name {
                StateName::Pending => "pending",
                StateName::Running => "running",
            });
        }
    }
    out
}

/// What a user writes by hand over `serde_json::Value`.
pub fn hand_value(v: &Value) -> Vec<&str> {
    let mut out = Vec::new();
    if let Some(rs) = v.get("Reservations").and_then(Value::as_array) {
        for r in rs {
            if let Some(is) = r.get("Instances").and_then(Value::as_array) {
                for i in is {
                    if let Some(n) = i
                        .get("State")
                        .and_then(|s| s.get("Name"))
                        .and_then(Value::as_str)
                    {
                        out.push(n);
                    }
                }
            }
        }
    }
    out
}
