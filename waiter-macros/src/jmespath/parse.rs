//! Parsing: JMESPath source -> the compiler's [`Ast`], with errors as [`Problem`]s.
//!
//! A Pratt parser over the tokens of [`super::lex`], written after the specification's grammar
//! and the reference implementation (jmespath.py): binding powers, projection stops, the
//! right-hand side of a dot. The `jmespath` crate's own parser is not used: it panicked (0.3) on integers outside
//! `i32`, accepted `[b a]` without a comma, rejected `a[-0]`, and let a projection continue past
//! `.{...}` (`a[*].{x: n}.x` must apply `.x` to the projected array, giving `null`). The tree
//! ([`super::ast`]) has the crate's shapes, with `i64` indices and slice bounds.
//!
//! Never panics: every malformed input is a [`Problem`] with its offset (in characters).

use super::ast::{Ast, Comparator, KeyValuePair};
use super::lex::{Tok, lex};
use super::problem::Problem;

/// How deep an expression may nest (as serde_json's recursion limit, 128): brackets,
/// parentheses, calls, `!`, `&`, filters, projections, and each step of a chain such as
/// `a[0][0]` or `a[].b[].c` count one level each; a plain field chain `a.b.c` (any length) is one
/// level, and `a || b || c` (or `&&`) is one level over its deepest operand. Every pass of the
/// compiler recurses at most this deep, so no input overflows the macro's stack, and the
/// expansion nests no deeper than this.
pub(crate) const MAX_DEPTH: usize = 128;

pub(crate) fn parse(expr: &str) -> Result<Ast, Problem> {
    let tokens = lex(expr)?;
    let mut p = Parser {
        tokens,
        pos: 0,
        depth: 0,
    };
    let ast = p.expression(0)?;
    if *p.peek() != Tok::Eof {
        return Err(p.unexpected("the end of the expression or an operator"));
    }
    match too_deep(&ast) {
        Some(offset) => Err(nested_too_deep(offset)),
        None => Ok(ast),
    }
}

fn nested_too_deep(offset: usize) -> Problem {
    Problem::syntax(
        offset,
        format!(
            "the expression is nested deeper than {MAX_DEPTH} levels here (brackets, \
             parentheses, calls, `!`, filters, projections and each step of a chain such as \
             `a[0][0]` count one level; a field chain `a.b.c` and a chain of `||` or `&&` count \
             one): write it with less nesting, or split it into several expressions"
        ),
    )
}

/// The offset of the first node (left to right, bottom up) that lies more than [`MAX_DEPTH`]
/// levels above a leaf, by the counting of [`MAX_DEPTH`]; without recursion.
fn too_deep(ast: &Ast) -> Option<usize> {
    let mut todo: Vec<(&Ast, bool)> = vec![(ast, false)];
    // Per node done: its height, and whether it is a field chain (`a.b.c`: one level).
    let mut done: Vec<(usize, bool)> = Vec::new();
    while let Some((node, expanded)) = todo.pop() {
        let children = node.levels_below();
        if !expanded {
            todo.push((node, true));
            todo.extend(children.iter().rev().map(|(c, _)| (*c, false)));
            continue;
        }
        let below = done.split_off(done.len() - children.len());
        let chain = match node {
            Ast::Field { .. } => true,
            Ast::Subexpr { .. } => below.iter().all(|(_, chain)| *chain),
            _ => false,
        };
        let height = if chain {
            1
        } else {
            children
                .iter()
                .zip(below)
                .map(|((_, step), (h, _))| step + h)
                .max()
                .unwrap_or(1)
        };
        if height > MAX_DEPTH {
            return Some(node.offset());
        }
        done.push((height, chain));
    }
    None
}

impl Tok {
    /// Left binding power (jmespath.py's `BINDING_POWER`).
    fn lbp(&self) -> usize {
        match self {
            Tok::Pipe => 1,
            Tok::Or => 2,
            Tok::And => 3,
            Tok::Eq | Tok::Ne | Tok::Lt | Tok::Lte | Tok::Gt | Tok::Gte => 5,
            Tok::Flatten => 9,
            Tok::Star => 20,
            Tok::Filter => 21,
            Tok::Dot => 40,
            Tok::Not => 45,
            Tok::Lbrace => 50,
            Tok::Lbracket => 55,
            Tok::Lparen => 60,
            _ => 0,
        }
    }
}

struct Parser {
    tokens: Vec<(usize, Tok)>,
    pos: usize,
    /// Nested calls of `expression` (bounded by [`MAX_DEPTH`]).
    depth: usize,
}

/// Projections stop at tokens binding less than this (jmespath.py's `_PROJECTION_STOP`).
const PROJECTION_STOP: usize = 10;

impl Parser {
    fn peek(&self) -> &Tok {
        &self.tokens[self.pos.min(self.tokens.len() - 1)].1
    }

    fn peek_at(&self, k: usize) -> &Tok {
        &self.tokens[(self.pos + k).min(self.tokens.len() - 1)].1
    }

    fn offset(&self) -> usize {
        self.tokens[self.pos.min(self.tokens.len() - 1)].0
    }

    fn advance(&mut self) -> (usize, Tok) {
        let t = self.tokens[self.pos.min(self.tokens.len() - 1)].clone();
        if self.pos < self.tokens.len() - 1 {
            self.pos += 1;
        }
        t
    }

    fn unexpected(&self, expected: &str) -> Problem {
        Problem::syntax(
            self.offset(),
            format!("expected {expected}, found {}", self.peek().describe()),
        )
    }

    fn expect(&mut self, tok: Tok) -> Result<(), Problem> {
        if *self.peek() == tok {
            self.advance();
            Ok(())
        } else {
            Err(self.unexpected(&format!("`{}`", tok.text())))
        }
    }

    fn expression(&mut self, rbp: usize) -> Result<Ast, Problem> {
        if self.depth == MAX_DEPTH {
            return Err(nested_too_deep(self.offset()));
        }
        self.depth += 1;
        let mut left = self.nud()?;
        while rbp < self.peek().lbp() {
            left = self.led(left)?;
        }
        self.depth -= 1;
        Ok(left)
    }

    fn nud(&mut self) -> Result<Ast, Problem> {
        let (offset, tok) = self.advance();
        Ok(match tok {
            Tok::Literal(value) => Ast::Literal { offset, value },
            Tok::Identifier(name) => Ast::Field { offset, name },
            Tok::QuotedIdentifier(name) => {
                if *self.peek() == Tok::Lparen {
                    return Err(Problem::syntax(
                        offset,
                        "a quoted identifier cannot name a function; remove the quotes",
                    ));
                }
                Ast::Field { offset, name }
            }
            Tok::Star => {
                let rhs = if *self.peek() == Tok::Rbracket {
                    Ast::Identity { offset }
                } else {
                    self.projection_rhs(Tok::Star.lbp())?
                };
                Ast::Projection {
                    offset,
                    lhs: Box::new(Ast::ObjectValues {
                        offset,
                        node: Box::new(Ast::Identity { offset }),
                    }),
                    rhs: Box::new(rhs),
                }
            }
            Tok::Filter => self.filter(Ast::Identity { offset }, offset)?,
            Tok::Lbrace => self.multi_hash(offset)?,
            Tok::Lparen => {
                let e = self.expression(0)?;
                self.expect(Tok::Rparen)?;
                e
            }
            Tok::Flatten => self.flatten(Ast::Identity { offset }, offset)?,
            Tok::Not => Ast::Not {
                offset,
                node: Box::new(self.expression(Tok::Not.lbp())?),
            },
            Tok::Lbracket => match self.peek() {
                Tok::Number(_) | Tok::Colon => {
                    let index = self.index_expression()?;
                    self.project_if_slice(Ast::Identity { offset }, index, offset)?
                }
                Tok::Star if *self.peek_at(1) == Tok::Rbracket => {
                    self.advance();
                    self.advance();
                    let rhs = self.projection_rhs(Tok::Star.lbp())?;
                    Ast::Projection {
                        offset,
                        lhs: Box::new(Ast::Identity { offset }),
                        rhs: Box::new(rhs),
                    }
                }
                _ => self.multi_list(offset)?,
            },
            Tok::At => Ast::Identity { offset },
            Tok::Ampersand => Ast::Expref {
                offset,
                ast: Box::new(self.expression(0)?),
            },
            other => {
                return Err(Problem::syntax(
                    offset,
                    format!("expected an expression, found {}", other.describe()),
                ));
            }
        })
    }

    fn led(&mut self, mut left: Ast) -> Result<Ast, Problem> {
        let (offset, tok) = self.advance();
        Ok(match tok {
            Tok::Dot => {
                if *self.peek() == Tok::Star {
                    let star = self.offset();
                    self.advance();
                    let rhs = self.projection_rhs(Tok::Dot.lbp())?;
                    Ast::Projection {
                        offset: star,
                        lhs: Box::new(Ast::ObjectValues {
                            offset: star,
                            node: Box::new(left),
                        }),
                        rhs: Box::new(rhs),
                    }
                } else {
                    let rhs = self.dot_rhs(Tok::Dot.lbp())?;
                    Ast::Subexpr {
                        offset,
                        lhs: Box::new(left),
                        rhs: Box::new(rhs),
                    }
                }
            }
            Tok::Pipe => Ast::Subexpr {
                offset,
                lhs: Box::new(left),
                rhs: Box::new(self.expression(Tok::Pipe.lbp())?),
            },
            Tok::Or => Ast::Or {
                offset,
                lhs: Box::new(left),
                rhs: Box::new(self.expression(Tok::Or.lbp())?),
            },
            Tok::And => Ast::And {
                offset,
                lhs: Box::new(left),
                rhs: Box::new(self.expression(Tok::And.lbp())?),
            },
            Tok::Lparen => {
                let name = match left {
                    Ast::Field {
                        ref mut name,
                        offset,
                    } => (std::mem::take(name), offset),
                    _ => {
                        return Err(Problem::syntax(
                            offset,
                            "`(` follows something that is not a function name",
                        ));
                    }
                };
                let mut args = Vec::new();
                if *self.peek() != Tok::Rparen {
                    loop {
                        args.push(self.expression(0)?);
                        match self.peek() {
                            Tok::Comma => {
                                self.advance();
                            }
                            Tok::Rparen => break,
                            _ => return Err(self.unexpected("`,` or `)`")),
                        }
                    }
                }
                self.expect(Tok::Rparen)?;
                Ast::Function {
                    offset: name.1,
                    name: name.0,
                    args,
                }
            }
            Tok::Filter => self.filter(left, offset)?,
            Tok::Flatten => self.flatten(left, offset)?,
            Tok::Eq | Tok::Ne | Tok::Lt | Tok::Lte | Tok::Gt | Tok::Gte => {
                let comparator = match tok {
                    Tok::Eq => Comparator::Equal,
                    Tok::Ne => Comparator::NotEqual,
                    Tok::Lt => Comparator::LessThan,
                    Tok::Lte => Comparator::LessThanEqual,
                    Tok::Gt => Comparator::GreaterThan,
                    _ => Comparator::GreaterThanEqual,
                };
                Ast::Comparison {
                    offset,
                    comparator,
                    lhs: Box::new(left),
                    rhs: Box::new(self.expression(5)?),
                }
            }
            Tok::Lbracket => match self.peek() {
                Tok::Number(_) | Tok::Colon => {
                    let index = self.index_expression()?;
                    self.project_if_slice(left, index, offset)?
                }
                Tok::Star => {
                    self.advance();
                    self.expect(Tok::Rbracket)?;
                    let rhs = self.projection_rhs(Tok::Star.lbp())?;
                    Ast::Projection {
                        offset,
                        lhs: Box::new(left),
                        rhs: Box::new(rhs),
                    }
                }
                _ => return Err(self.unexpected("a number, `:` or `*`")),
            },
            other => {
                return Err(Problem::syntax(
                    offset,
                    format!("unexpected {}", other.describe()),
                ));
            }
        })
    }

    /// `left[?condition]rhs`.
    fn filter(&mut self, left: Ast, offset: usize) -> Result<Ast, Problem> {
        let predicate = self.expression(0)?;
        self.expect(Tok::Rbracket)?;
        let then = if *self.peek() == Tok::Flatten {
            Ast::Identity { offset }
        } else {
            self.projection_rhs(Tok::Filter.lbp())?
        };
        Ok(Ast::Projection {
            offset,
            lhs: Box::new(left),
            rhs: Box::new(Ast::Condition {
                offset,
                predicate: Box::new(predicate),
                then: Box::new(then),
            }),
        })
    }

    /// `left[]rhs`.
    fn flatten(&mut self, left: Ast, offset: usize) -> Result<Ast, Problem> {
        let rhs = self.projection_rhs(Tok::Flatten.lbp())?;
        Ok(Ast::Projection {
            offset,
            lhs: Box::new(Ast::Flatten {
                offset,
                node: Box::new(left),
            }),
            rhs: Box::new(rhs),
        })
    }

    /// After `[`: an index `[n]` or a slice `[a:b:c]`, up to and including `]`.
    fn index_expression(&mut self) -> Result<Ast, Problem> {
        let offset = self.offset();
        if *self.peek() == Tok::Colon || *self.peek_at(1) == Tok::Colon {
            let mut parts: [Option<i64>; 3] = [None; 3];
            let mut index = 0;
            loop {
                match self.peek().clone() {
                    Tok::Rbracket => break,
                    Tok::Colon => {
                        index += 1;
                        if index == 3 {
                            return Err(Problem::syntax(self.offset(), "too many `:` in a slice"));
                        }
                        self.advance();
                    }
                    Tok::Number(n) => {
                        if parts[index].is_some() {
                            return Err(self.unexpected("`:` or `]`"));
                        }
                        parts[index] = Some(self.int(&n)?);
                        self.advance();
                    }
                    _ => return Err(self.unexpected("a number, `:` or `]`")),
                }
            }
            self.expect(Tok::Rbracket)?;
            Ok(Ast::Slice {
                offset,
                start: parts[0],
                stop: parts[1],
                step: parts[2].unwrap_or(1),
            })
        } else {
            let n = match self.peek().clone() {
                Tok::Number(n) => n,
                _ => return Err(self.unexpected("a number")),
            };
            let idx = self.int(&n)?;
            self.advance();
            self.expect(Tok::Rbracket)?;
            Ok(Ast::Index { offset, idx })
        }
    }

    /// A number token as an `i64` index or slice bound (a compile error outside that range,
    /// never a wrapped value).
    fn int(&self, n: &str) -> Result<i64, Problem> {
        n.parse::<i64>().map_err(|_| {
            Problem::syntax(
                self.offset(),
                format!(
                    "index or slice bound `{n}` is outside {}..={} (no array is that long: \
                     check the number)",
                    i64::MIN,
                    i64::MAX
                ),
            )
        })
    }

    fn project_if_slice(&mut self, left: Ast, index: Ast, offset: usize) -> Result<Ast, Problem> {
        let is_slice = matches!(index, Ast::Slice { .. });
        let indexed = match left {
            Ast::Identity { .. } => index,
            left => Ast::Subexpr {
                offset,
                lhs: Box::new(left),
                rhs: Box::new(index),
            },
        };
        if is_slice {
            let rhs = self.projection_rhs(Tok::Star.lbp())?;
            Ok(Ast::Projection {
                offset,
                lhs: Box::new(indexed),
                rhs: Box::new(rhs),
            })
        } else {
            Ok(indexed)
        }
    }

    /// The right-hand side of a projection: what applies to each element.
    fn projection_rhs(&mut self, rbp: usize) -> Result<Ast, Problem> {
        let offset = self.offset();
        match self.peek() {
            t if t.lbp() < PROJECTION_STOP => Ok(Ast::Identity { offset }),
            Tok::Lbracket | Tok::Filter => self.expression(rbp),
            Tok::Dot => {
                self.advance();
                self.dot_rhs(rbp)
            }
            _ => Err(self.unexpected("`.`, `[`, `[?`, or the end of the projection")),
        }
    }

    /// What may follow a `.`: an identifier (or function call), `*`, a multi-select list or
    /// hash (which end the right-hand side: nothing after them belongs to it).
    fn dot_rhs(&mut self, rbp: usize) -> Result<Ast, Problem> {
        let offset = self.offset();
        match self.peek() {
            Tok::Identifier(_) | Tok::QuotedIdentifier(_) | Tok::Star => self.expression(rbp),
            Tok::Lbracket => {
                self.advance();
                self.multi_list(offset)
            }
            Tok::Lbrace => {
                self.advance();
                self.multi_hash(offset)
            }
            _ => Err(self.unexpected("an identifier, `*`, `[` or `{` after `.`")),
        }
    }

    /// After `[`: `[a, b, ...]`.
    fn multi_list(&mut self, offset: usize) -> Result<Ast, Problem> {
        let mut elements = Vec::new();
        loop {
            elements.push(self.expression(0)?);
            match self.peek() {
                Tok::Rbracket => {
                    self.advance();
                    break;
                }
                Tok::Comma => {
                    self.advance();
                }
                _ => return Err(self.unexpected("`,` or `]`")),
            }
        }
        Ok(Ast::MultiList { offset, elements })
    }

    /// After `{`: `{k: v, ...}`.
    fn multi_hash(&mut self, offset: usize) -> Result<Ast, Problem> {
        let mut elements = Vec::new();
        loop {
            let key = match self.peek().clone() {
                Tok::Identifier(k) | Tok::QuotedIdentifier(k) => k,
                _ => return Err(self.unexpected("a key (an identifier)")),
            };
            self.advance();
            self.expect(Tok::Colon)?;
            let value = self.expression(0)?;
            elements.push(KeyValuePair { key, value });
            match self.peek() {
                Tok::Rbrace => {
                    self.advance();
                    break;
                }
                Tok::Comma => {
                    self.advance();
                }
                _ => return Err(self.unexpected("`,` or `}`")),
            }
        }
        Ok(Ast::MultiHash { offset, elements })
    }
}
