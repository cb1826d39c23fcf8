//! `judge list`: the problems of judge.toml, their case counts and limits.

use super::{Failure, Outcome, load_config};
use crate::commands::stdout::outln;
use crate::config::{Overrides, Size, Span};
use crate::text::whitespace::{shown_name, shown_path};
use crate::verdict::ExitCode;
use std::path::Path;

pub fn list(config_path: Option<&Path>) -> Outcome {
    let config = load_config(config_path, &Overrides::default())?
        .ok_or_else(|| Failure::Usage("no judge.toml here: give --config FILE".to_string()))?;
    let mut rows = vec![[
        "problem".to_string(),
        "kind".to_string(),
        "check".to_string(),
        "cases".to_string(),
        "time".to_string(),
        "memory".to_string(),
        "output".to_string(),
        "cases root".to_string(),
    ]];
    for p in &config.problems {
        let count = match crate::cases::discover_groups(
            &p.cases,
            &p.case_groups,
            crate::formats::package_of,
        ) {
            Ok(d) => d.cases.len().to_string(),
            Err(_) => "error".to_string(),
        };
        let kind = match (p.puzzle, &p.package) {
            (Some(z), _) => format!("puzzle {}", z.name()),
            (None, Some(_)) => "package".to_string(),
            (None, None) => "text".to_string(),
        };
        let mut check = p.comparison.name().to_string();
        if let Some(c) = p.comparison.checker() {
            check = format!("checker ({})", c.protocol.name());
        }
        if p.strict {
            check.push_str(" strict");
        }
        if p.puzzle.is_some() && p.lexmin {
            check.push_str(" lexmin");
        }
        rows.push([
            shown_name(&p.name).into_owned(),
            kind,
            check,
            count,
            Span(p.limits.time).to_string(),
            p.limits.memory.map_or("-".into(), |m| Size(m).to_string()),
            Size(p.limits.output).to_string(),
            shown_path(&p.cases),
        ]);
    }
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0))
        .collect();
    for row in &rows {
        let line: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(cell, w)| format!("{cell:<w$}"))
            .collect();
        outln!("{}", line.join("  ").trim_end());
    }
    Ok(ExitCode::Ok)
}
