//! problem.xml as a small tree: elements with their attributes, text and
//! the line each starts on (every message names it). Read with quick-xml;
//! nothing here knows what Polygon's elements mean.

use crate::formats::error::{FormatError, Place};
use quick_xml::Reader;
use quick_xml::events::Event;
use std::path::Path;

/// Deeper than any problem.xml nests (about 6): a file nested past this is
/// refused before it costs anything.
const MAX_DEPTH: usize = 64;

/// One element.
#[derive(Clone, Debug, Default)]
pub(super) struct Element {
    pub name: String,
    pub attrs: Vec<(String, String)>,
    pub children: Vec<Element>,
    /// The text directly inside it, trimmed.
    pub text: String,
    /// 1-based line of its start tag.
    pub line: usize,
}

impl Element {
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn child(&self, name: &str) -> Option<&Element> {
        self.children.iter().find(|c| c.name == name)
    }

    pub fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Element> + 'a {
        self.children.iter().filter(move |c| c.name == name)
    }
}

/// The offsets of a text's newlines, to name the line of any offset in
/// logarithmic time (counting from the start at every element made a
/// 4 MB problem.xml of a million elements take minutes).
struct Lines(Vec<usize>);

impl Lines {
    fn new(text: &str) -> Lines {
        Lines(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i)
                .collect(),
        )
    }

    /// The 1-based line of byte `offset`.
    fn of(&self, offset: u64) -> usize {
        let end = usize::try_from(offset).unwrap_or(usize::MAX);
        self.0.partition_point(|&nl| nl < end) + 1
    }
}

/// Parse `text` (the contents of `file`) into its root element. Errors
/// name the file and line.
pub(super) fn parse(file: &Path, text: &str) -> Result<Element, FormatError> {
    let mut reader = Reader::from_str(text);
    let mut stack: Vec<Element> = vec![Element::default()];
    let lines = Lines::new(text);
    let at = |offset: u64| Place::line(file, lines.of(offset));
    let syntax = |place: Place, message: String| FormatError::Syntax { place, message };
    loop {
        let before = reader.buffer_position();
        let event = reader.read_event().map_err(|e| {
            syntax(
                at(reader.error_position()),
                format!("not well-formed XML: {e}"),
            )
        })?;
        match event {
            Event::Start(ref start) | Event::Empty(ref start) => {
                let self_closing = matches!(event, Event::Empty(_));
                let name = String::from_utf8_lossy(start.name().as_ref()).into_owned();
                let mut attrs = Vec::new();
                for attr in start.attributes() {
                    let attr = attr.map_err(|e| FormatError::Element {
                        place: at(before),
                        element: name.clone(),
                        attribute: None,
                        message: format!("bad attribute: {e}"),
                    })?;
                    let key = String::from_utf8_lossy(attr.key.as_ref()).into_owned();
                    let value = attr
                        .normalized_value(quick_xml::XmlVersion::default())
                        .map_err(|e| {
                            syntax(at(before), format!("<{name}> {key}: bad value: {e}"))
                        })?;
                    attrs.push((key, value.into_owned()));
                }
                let element = Element {
                    name,
                    attrs,
                    children: Vec::new(),
                    text: String::new(),
                    line: lines.of(before),
                };
                if self_closing {
                    push_child(&mut stack, element);
                } else {
                    if stack.len() > MAX_DEPTH {
                        return Err(syntax(
                            at(before),
                            format!("nested more than {MAX_DEPTH} elements deep"),
                        ));
                    }
                    stack.push(element);
                }
            }
            Event::End(_) => {
                if stack.len() < 2 {
                    return Err(syntax(
                        at(before),
                        "a closing tag with no opening one".to_string(),
                    ));
                }
                if let Some(mut done) = stack.pop() {
                    done.text = done.text.trim().to_string();
                    push_child(&mut stack, done);
                }
            }
            Event::Text(t) => {
                let s = t
                    .decode()
                    .map_err(|e| syntax(at(before), format!("text: {e}")))?;
                if let Some(top) = stack.last_mut() {
                    top.text.push_str(&s);
                }
            }
            Event::CData(t) => {
                if let Some(top) = stack.last_mut() {
                    top.text.push_str(&String::from_utf8_lossy(&t.into_inner()));
                }
            }
            Event::GeneralRef(r) => {
                let name = String::from_utf8_lossy(r.as_ref()).into_owned();
                let c = match name.as_str() {
                    "amp" => Some('&'),
                    "lt" => Some('<'),
                    "gt" => Some('>'),
                    "quot" => Some('"'),
                    "apos" => Some('\''),
                    _ => r.resolve_char_ref().ok().flatten(),
                };
                if let Some(top) = stack.last_mut() {
                    match c {
                        Some(c) => top.text.push(c),
                        None => top.text.push_str(&format!("&{name};")),
                    }
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if stack.len() != 1 {
        return Err(syntax(
            Place::file(file),
            format!(
                "ends inside <{}>",
                stack.last().map_or("", |e| e.name.as_str())
            ),
        ));
    }
    let mut top = stack.pop().unwrap_or_default();
    match top.children.len() {
        1 => Ok(top.children.remove(0)),
        0 => Err(syntax(Place::file(file), "no root element".to_string())),
        _ => Err(syntax(
            Place::file(file),
            "more than one root element".to_string(),
        )),
    }
}

fn push_child(stack: &mut [Element], element: Element) {
    if let Some(parent) = stack.last_mut() {
        parent.children.push(element);
    }
}
