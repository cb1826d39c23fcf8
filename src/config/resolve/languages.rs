//! `[language.NAME]` tables: the built-in languages changed, new ones
//! added, each extension claimed by one language.

use super::places::line_col;
use crate::config::schema::RootTable;
use crate::config::{ConfigError, Place};
use crate::submission::Language;
use std::path::Path;

/// The built-in languages changed by `[language.NAME]` tables, then the
/// new ones. Two languages may not claim one extension.
pub(in crate::config) fn resolve_languages(
    root: &RootTable,
    path: &Path,
    text: &str,
) -> Result<Vec<Language>, ConfigError> {
    let mut languages = crate::submission::builtin_languages();
    for (name, table) in &root.language {
        let at = |message: String| ConfigError::Key {
            place: {
                let (line, column) = line_col(text, table.span().start);
                Place::at(path, line, column)
            },
            key: format!("language.{name}"),
            message,
        };
        let t = table.get_ref();
        for template in [&t.compile, &t.run, &t.interpreter].into_iter().flatten() {
            if shlex::split(template).is_none_or(|w| w.is_empty()) {
                return Err(at(format!(
                    "{template:?} is not a command line (unbalanced quotes?)"
                )));
            }
        }
        if let Some(extensions) = &t.extensions
            && let Some(bad) = extensions
                .iter()
                .find(|e| e.is_empty() || e.contains('/') || e.starts_with('.'))
        {
            return Err(at(format!(
                "extension {bad:?}: write it without the dot, e.g. \"cpp\""
            )));
        }
        // `[language.python]` is the built-in python3 (its older name).
        let builtin = crate::submission::canonical_name(name);
        match languages
            .iter_mut()
            .find(|l| l.name == *name || l.name == builtin)
        {
            Some(language) => {
                if let Some(e) = &t.extensions {
                    language.extensions = e.clone();
                }
                // A changed command names its own tools (the first word),
                // which the table's package may not provide.
                if t.compile.is_some() || t.interpreter.is_some() {
                    language.tool = None;
                    language.package = None;
                }
                if let Some(c) = &t.compile {
                    // An empty compile command means "nothing to compile".
                    language.compile = (!c.trim().is_empty()).then(|| c.clone());
                }
                if let Some(r) = &t.run {
                    language.run = r.clone();
                }
                if let Some(i) = &t.interpreter {
                    language.interpreter = (!i.trim().is_empty()).then(|| i.clone());
                }
                if let Some(a) = t.address_space {
                    language.address_space = a;
                }
            }
            None => {
                let (Some(extensions), Some(run)) = (&t.extensions, &t.run) else {
                    return Err(at(format!(
                        "a new language needs extensions = [\"…\"] and run = \"…\" (the built-in languages are {})",
                        crate::submission::builtin_languages()
                            .iter()
                            .map(|l| l.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )));
                };
                languages.push(Language {
                    name: name.clone(),
                    title: name.clone(),
                    extensions: extensions.clone(),
                    compile: t.compile.clone().filter(|c| !c.trim().is_empty()),
                    run: run.clone(),
                    interpreter: t.interpreter.clone().filter(|i| !i.trim().is_empty()),
                    address_space: t.address_space.unwrap_or(true),
                    tool: None,
                    package: None,
                });
            }
        }
    }
    // A language the file names wins an extension over a built-in one it
    // does not name; two languages the file names may not share one.
    let named = |l: &Language| {
        root.language
            .keys()
            .any(|k| *k == l.name || crate::submission::canonical_name(k) == l.name)
    };
    let mut claimed: std::collections::HashMap<String, String> = Default::default();
    for language in languages.iter().filter(|l| named(l)) {
        for ext in &language.extensions {
            if let Some(other) = claimed.insert(ext.clone(), language.name.clone()) {
                return Err(ConfigError::Whole {
                    path: path.to_path_buf(),
                    message: format!(
                        "languages {other} and {} both claim the extension .{ext}",
                        language.name
                    ),
                });
            }
        }
    }
    for language in languages.iter_mut() {
        if !named(language) {
            language.extensions.retain(|e| !claimed.contains_key(e));
        }
    }
    Ok(languages)
}
