//! `zogkit completions SHELL`, `zogkit man [-o DIR]` and the hidden `zogkit dist-assets DIR`
//! (run by `cargo xtask dist`): shell completions and man pages generated from the command-line
//! definition, so they cannot drift from it.

use super::output::{self, Existing};
use super::{EXIT_OK, EXIT_USAGE, display_path};
use clap_complete::Shell;
use std::path::{Path, PathBuf};

/// Arguments of `zogkit completions`.
#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, powershell or elvish.
    #[arg(value_enum)]
    pub shell: Shell,
}

/// Arguments of `zogkit man`.
#[derive(Debug, clap::Args)]
pub struct ManArgs {
    /// Only this subcommand's page (default: the page of `zogkit` itself).
    pub subcommand: Option<String>,
    /// Write every page into this folder instead (`zogkit.1` and one `zogkit-SUBCOMMAND.1`
    /// per subcommand).
    #[arg(short, long, value_name = "DIR")]
    pub output: Option<PathBuf>,
    /// With `-o`: replace pages that exist.
    #[arg(long)]
    pub force: bool,
}

/// The shells completions are generated for, with the file name each expects.
const SHELLS: [(Shell, &str); 5] = [
    (Shell::Bash, "zogkit.bash"),
    (Shell::Zsh, "_zogkit"),
    (Shell::Fish, "zogkit.fish"),
    (Shell::Elvish, "zogkit.elv"),
    (Shell::PowerShell, "_zogkit.ps1"),
];

/// The completion script of `shell` for the command `cmd`.
fn completion(cmd: &mut clap::Command, shell: Shell) -> Vec<u8> {
    let name = cmd.get_name().to_string();
    let mut bytes = Vec::new();
    clap_complete::generate(shell, cmd, name, &mut bytes);
    bytes
}

/// Runs `zogkit completions SHELL`: the script on standard output.
pub fn completions(mut cmd: clap::Command, args: &CompletionsArgs) -> u8 {
    let bytes = completion(&mut cmd, args.shell);
    match output::stdout_bytes(&bytes) {
        Ok(()) => EXIT_OK,
        Err(code) => code,
    }
}

/// The man pages of `cmd`: `(file name, roff)` for `zogkit` and each visible subcommand.
fn pages(cmd: &mut clap::Command) -> Result<Vec<(String, Vec<u8>)>, String> {
    cmd.build();
    let name = cmd.get_name().to_string();
    let page = |c: &clap::Command, title: String| -> Result<(String, Vec<u8>), String> {
        let mut bytes = Vec::new();
        clap_mangen::Man::new(c.clone())
            .title(title.to_uppercase())
            .render(&mut bytes)
            .map_err(|e| e.to_string())?;
        Ok((format!("{title}.1"), bytes))
    };
    let mut out = vec![page(cmd, name.clone())?];
    for sub in cmd
        .get_subcommands()
        .filter(|s| !s.is_hide_set() && s.get_name() != "help")
    {
        out.push(page(sub, format!("{name}-{}", sub.get_name()))?);
    }
    Ok(out)
}

/// Runs `zogkit man`: one page on standard output, or every page into `-o DIR`.
pub fn man(mut cmd: clap::Command, args: &ManArgs) -> u8 {
    let all = match pages(&mut cmd) {
        Ok(p) => p,
        Err(e) => {
            super::error_line!("{e}");
            return EXIT_USAGE;
        }
    };
    let Some(dir) = &args.output else {
        let want = match &args.subcommand {
            Some(s) => format!("zogkit-{s}.1"),
            None => "zogkit.1".into(),
        };
        let Some((_, bytes)) = all.iter().find(|(f, _)| *f == want) else {
            let names: Vec<&str> = all[1..]
                .iter()
                .filter_map(|(f, _)| f.strip_prefix("zogkit-")?.strip_suffix(".1"))
                .collect();
            super::error_line!(
                "no subcommand {:?}; the subcommands are: {}",
                args.subcommand.as_deref().unwrap_or_default(),
                names.join(", ")
            );
            return EXIT_USAGE;
        };
        return match output::stdout_bytes(bytes) {
            Ok(()) => EXIT_OK,
            Err(code) => code,
        };
    };
    if args.subcommand.is_some() {
        super::error_line!("-o writes every page; name no subcommand with it");
        return EXIT_USAGE;
    }
    let written = output::usable_dir(dir).and_then(|()| {
        let existing = Existing::new(args.force, false);
        for (file, _) in &all {
            output::plan(&dir.join(file), existing, None)?;
        }
        for (file, bytes) in &all {
            output::write(&dir.join(file), bytes, args.force)?;
        }
        Ok(all.len())
    });
    report(written, dir)
}

fn report(written: Result<usize, String>, dir: &Path) -> u8 {
    match written {
        Ok(n) => {
            eprintln!("wrote {n} files into {}", display_path(dir));
            EXIT_OK
        }
        Err(e) => {
            super::error_line!("{e}");
            EXIT_USAGE
        }
    }
}

/// Runs `zogkit dist-assets DIR`: `DIR/completions/` (every shell) and `DIR/man/` (every
/// page), replacing what is there.
pub fn run(mut cmd: clap::Command, dir: &Path) -> u8 {
    let put = |path: &Path, bytes: &[u8]| {
        super::write_atomic(path, bytes)
            .map_err(|e| format!("cannot write {}: {e}", display_path(path)))
    };
    let written = (|| {
        let mut count = 0;
        for (shell, file) in SHELLS {
            put(
                &dir.join("completions").join(file),
                &completion(&mut cmd, shell),
            )?;
            count += 1;
        }
        for (file, bytes) in pages(&mut cmd)? {
            put(&dir.join("man").join(file), &bytes)?;
            count += 1;
        }
        Ok(count)
    })();
    report(written, dir)
}
