//! No abort on deep data through the serde paths and flattened members:
//! each reproduction of the issue runs on a thread with a 2 MiB stack, where it used to
//! overflow it.

use serde::Serialize;
use serde_json::{Value, json};
use waiter_runtime::jmespath;
use waiter_runtime::jmespath::{Node, Searchable, Serialized};

/// Runs `f` on a thread with a 2 MiB stack (a stack overflow aborts the test binary).
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

/// `[[[...1...]]]`, `levels` deep, built without recursion.
fn nested_arrays(levels: usize) -> Value {
    let mut v = json!(1);
    for _ in 0..levels {
        v = Value::Array(vec![v]);
    }
    v
}

/// Drops a nested array without recursion (a `Value` drops itself recursively).
fn dismantle(mut v: Value) {
    while let Value::Array(mut items) = v {
        v = items.pop().unwrap_or(Value::Null);
    }
}

/// How many arrays deep `v` goes through its first elements.
fn depth_of(v: &Value) -> usize {
    let mut depth = 0;
    let mut v = v;
    while let Value::Array(items) = v {
        depth += 1;
        match items.first() {
            Some(first) => v = first,
            None => break,
        }
    }
    depth
}

#[test]
fn a_deep_value_through_serialized_is_cut_at_max_depth() {
    on_small_stack(|| {
        let v = nested_arrays(2_000);
        let view = Serialized(&v);
        let found = jmespath!("length(@)").search(&view).unwrap();
        assert_eq!(found, json!(1));
        // The whole value: cut at `MAX_DEPTH`, as every whole-value operation does.
        let node = view.node();
        // `null` in place of the part below it, as `Node::from_value` gives.
        let cut = node.try_to_value().unwrap();
        assert_eq!(depth_of(&cut), Node::MAX_DEPTH);
        assert_eq!(cut, Node::from_value(nested_arrays(300)).to_value());
        drop(node);
        dismantle(v);
    });
}

/// A user type 2,000 levels deep.
#[derive(Serialize)]
struct Tree {
    name: &'static str,
    children: Vec<Tree>,
}

fn deep_tree(levels: usize) -> Tree {
    let mut t = Tree {
        name: "leaf",
        children: vec![],
    };
    for _ in 0..levels {
        t = Tree {
            name: "inner",
            children: vec![t],
        };
    }
    t
}

fn dismantle_tree(mut t: Tree) {
    while let Some(child) = t.children.pop() {
        t = child;
    }
}

#[test]
fn a_deep_user_type_through_serialized_is_cut_at_max_depth() {
    on_small_stack(|| {
        let t = deep_tree(2_000);
        let view = Serialized(&t);
        let found = jmespath!("children[0].children[0].name")
            .search(&view)
            .unwrap();
        assert_eq!(found, json!("inner"));
        // 2 levels per tree level (the object, its `children`): the 128th tree is `null`.
        let mut cut = view.node().to_value();
        let mut trees = 0;
        while let Some(children) = cut.get_mut("children") {
            trees += 1;
            cut = children.as_array_mut().unwrap().pop().unwrap();
        }
        assert_eq!((trees, cut), (Node::MAX_DEPTH / 2, Value::Null));
        dismantle_tree(t);
    });
}

#[derive(waiter_runtime::Searchable)]
struct Holder {
    state: &'static str,
    #[searchable(serde)]
    blob: Value,
}

#[test]
fn a_deep_searchable_serde_field_is_cut_at_max_depth() {
    on_small_stack(|| {
        let holder = Holder {
            state: "ok",
            blob: nested_arrays(10_000),
        };
        assert_eq!(jmespath!("state").search(&holder).unwrap(), json!("ok"));
        assert_eq!(jmespath!("length(blob)").search(&holder).unwrap(), json!(1));
        let text = jmespath!("to_string(blob)").search(&holder).unwrap();
        let text = text.as_str().unwrap();
        let brackets = "[".repeat(Node::MAX_DEPTH);
        assert!(text.starts_with(&format!("{brackets}null]")), "{text}");
        dismantle(holder.blob);
    });
}

#[test]
fn node_from_value_drops_the_part_below_max_depth_without_recursion() {
    on_small_stack(|| {
        let node = Node::from_value(nested_arrays(20_000));
        assert_eq!(depth_of(&node.to_value()), Node::MAX_DEPTH);
    });
}

/// A type that flattens itself.
#[derive(Serialize, waiter_runtime::Searchable)]
struct Flat {
    x: String,
    #[serde(flatten)]
    more: Option<Box<Flat>>,
}

fn deep_flat(levels: usize) -> Flat {
    let mut f = Flat {
        x: "bottom".into(),
        more: None,
    };
    for i in 0..levels {
        f = Flat {
            x: format!("level {i}"),
            more: Some(Box::new(f)),
        };
    }
    f
}

fn dismantle_flat(mut f: Flat) {
    while let Some(next) = f.more.take() {
        f = *next;
    }
}

#[test]
fn a_self_flattening_type_10k_deep_searches_without_abort() {
    on_small_stack(|| {
        let f = deep_flat(10_000);
        assert_eq!(jmespath!("nope").search(&f).unwrap(), Value::Null);
        assert_eq!(jmespath!("keys(@)").search(&f).unwrap(), json!(["x"]));
        assert_eq!(jmespath!("x").search(&f).unwrap(), json!("level 9999"));
        assert_eq!(jmespath!("length(@)").search(&f).unwrap(), json!(1));
        dismantle_flat(f);
    });
}

#[test]
fn flattened_members_are_found_within_max_depth() {
    // A member only the bottom level has, `MAX_DEPTH - 1` flattened levels down, is found;
    // one level deeper it is not looked into.
    #[derive(waiter_runtime::Searchable)]
    struct Bottom {
        only_here: u8,
    }
    #[derive(waiter_runtime::Searchable)]
    struct Layer {
        #[searchable(flatten)]
        inner: Inner,
    }
    #[derive(waiter_runtime::Searchable)]
    #[allow(dead_code)]
    enum Inner {
        #[searchable(untagged)]
        Layer(Box<Layer>),
        #[searchable(untagged)]
        Bottom(Bottom),
    }
    fn layers(n: usize) -> Layer {
        let mut l = Layer {
            inner: Inner::Bottom(Bottom { only_here: 7 }),
        };
        for _ in 1..n {
            l = Layer {
                inner: Inner::Layer(Box::new(l)),
            };
        }
        l
    }
    on_small_stack(|| {
        let within = layers(Node::MAX_DEPTH);
        assert_eq!(jmespath!("only_here").search(&within).unwrap(), json!(7));
        let beyond = layers(Node::MAX_DEPTH + 1);
        assert_eq!(jmespath!("only_here").search(&beyond).unwrap(), Value::Null);
    });
}
