//! `zogkit render`: draw one game's board (and its checkered twin) and one tile per piece face
//! and side, validate everything, then write the images, `images.zrf` and `images.json`
//! atomically into the output directory.

use super::author_images::Collection;
use super::output::{self, Existing, Plan};
use super::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE, progress};
use clap::{Args, ValueEnum};
use std::path::{Path, PathBuf};
use zogkit::format::Format;
use zogkit::render::game::PlanOptions;
use zogkit::render::images::{FRAGMENT_FILE, MANIFEST_FILE};
use zogkit::render::set::{FileKind, OwnImages, SetOptions, compose_start_with, render_set};
use zogkit::render::sheet::SheetStyle;
use zogkit::render::{ColourClass, FontSet, ImageFormat, from_spec};
use zogkit::spec::Document;
use zogkit::text::Encoding;

/// Output image format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutFormat {
    /// 24-bit BMP with a 40-byte header (what Zillions of Games loads).
    Bmp,
    /// PNG.
    Png,
}

/// Board style (`--style`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum StyleArg {
    /// Rectangular cells; the checkered twin alternates two fills.
    Checkered,
    /// Dots joined by lines along the links (alquerque, morris).
    Points,
    /// Hexagonal cells.
    Hex,
    /// Lines between linked points, pieces on the points (xiangqi, go).
    Lines,
}

impl StyleArg {
    fn sheet_style(self) -> SheetStyle {
        match self {
            StyleArg::Checkered => SheetStyle::Checkered,
            StyleArg::Points => SheetStyle::Points,
            StyleArg::Hex => SheetStyle::Hex,
            StyleArg::Lines => SheetStyle::Lines,
        }
    }
}

/// Arguments of `zogkit render`.
#[derive(Debug, Args)]
pub struct RenderArgs {
    /// The game file (ZRF or spec YAML).
    pub file: PathBuf,
    /// Which game: its 1-based menu index or its title (default: the first game).
    #[arg(long)]
    pub game: Option<String>,
    /// Output directory (created if missing); image paths inside it follow the spec's image
    /// names when it has them. Existing files in it are refused unless --force or --update.
    #[arg(short, long)]
    pub output: PathBuf,
    /// Overwrite existing files in the output directory.
    #[arg(long)]
    pub force: bool,
    /// Write nothing when every file the set needs exists and is newer than the input;
    /// otherwise replace them.
    #[arg(long, conflicts_with = "force")]
    pub update: bool,
    /// Image format.
    #[arg(long, value_enum, default_value_t = OutFormat::Bmp)]
    pub format: OutFormat,
    /// Make the checkered board the default (listed first in the board's `image`); both boards
    /// are always written.
    #[arg(long)]
    pub checkered: bool,
    /// Lay the grid out anew with this cell pitch in pixels (interior + 1 line; tiles are
    /// unit − 1 pixels) instead of drawing every position at its own rectangle; images.zrf
    /// then gives the new grid geometry.
    #[arg(long, value_name = "PX")]
    pub unit: Option<u32>,
    /// How cells are drawn: checkered (rectangular cells), points (dots joined by lines along
    /// the links), hex (hexagonal cells) or lines (lines between linked points, pieces on the
    /// points). Default: chosen per board from its rectangles, links and zones.
    #[arg(long, value_enum)]
    pub style: Option<StyleArg>,
    /// Draw names with this font (TTF/OTF); the bundled fonts stay as fallbacks.
    #[arg(long, value_name = "FILE")]
    pub font: Option<PathBuf>,
    /// Draw the grid's labels in a margin around the board (lays the grid out anew, like
    /// --unit).
    #[arg(long)]
    pub labels: bool,
    /// Shade the cells of the board's zones.
    #[arg(long)]
    pub zones: bool,
    /// Override a piece's name colour: PIECE=CLASS with CLASS one of unpromoted, promoted,
    /// never, royal, promoted-royal (repeatable).
    #[arg(long = "class", value_name = "PIECE=CLASS")]
    pub classes: Vec<String>,
    /// Override the text drawn on a piece: PIECE=TEXT (repeatable).
    #[arg(long = "name", value_name = "PIECE=TEXT")]
    pub names: Vec<String>,
    /// Input format (default: from the extension).
    #[arg(long, value_parser = super::convert::readable_format())]
    pub from: Option<Format>,
    /// Also write the start position, composed from the board and tiles, as `start.png`: with
    /// the author's own board and piece pictures where the rule file names them (found as ZoG
    /// finds them: relative to its folder, `\` or `/`, any letter case).
    #[arg(long)]
    pub start: bool,
    /// The collection the rule file belongs to: the author's pictures may be anywhere inside
    /// it (`..\Images\…` from a `Rules` folder), nothing outside is read (default: the rule
    /// file's folder).
    #[arg(long, value_name = "DIR")]
    pub collection: Option<PathBuf>,
    /// Print only problems.
    #[arg(short, long)]
    pub quiet: bool,
}

/// Runs `zogkit render`.
pub fn run(args: RenderArgs) -> u8 {
    match render(&args) {
        Ok(code) => code,
        Err((code, msg)) => {
            super::error_line!("{msg}");
            code
        }
    }
}

fn render(args: &RenderArgs) -> Result<u8, (u8, String)> {
    let usage = |m: String| (EXIT_USAGE, m);
    let opts = plan_options(args)?;
    let fonts = match &args.font {
        None => FontSet::bundled(),
        Some(p) => {
            let bytes = super::read_bounded(p, super::MAX_AUX_BYTES)
                .map_err(|e| usage(format!("cannot read font {e}")))?;
            FontSet::user_font(bytes, true).map_err(|e| usage(format!("{}: {e}", p.display())))?
        }
    };
    let (doc, source_encoding) = load(&args.file, args.from)?;
    let game = pick_game(&doc, args.game.as_deref())?;
    let plan = from_spec(&doc, game, &opts).map_err(|e| (EXIT_ERRORS, e.to_string()))?;
    for n in &plan.notes {
        eprintln!("note: {n}");
    }
    for piece in opts.classes.keys().chain(opts.names.keys()) {
        if !plan.pieces.iter().any(|p| p.piece == *piece) {
            super::warning_line!("override for {piece}: the game has no such piece");
        }
    }
    let set_opts = SetOptions {
        format: opts.format,
        checkered_first: args.checkered,
        labels: args.labels,
        zones: args.zones,
        ..Default::default()
    };
    let set = render_set(&plan, &set_opts, &fonts).map_err(|e| (EXIT_ERRORS, e.to_string()))?;
    for w in &set.warnings {
        eprintln!("{w}");
    }
    if !set.errors.is_empty() {
        for e in &set.errors {
            eprint!(
                "{}",
                super::color::stderr(&format!("error[render::validate]: {e}\n"))
            );
        }
        return Err((
            EXIT_ERRORS,
            format!(
                "{} validator failure(s); nothing was written",
                set.errors.len()
            ),
        ));
    }
    let dir = &args.output;
    let files = set_files(args, (&doc, game, &plan), &set, source_encoding)?;
    if !write_set(args, &files)? {
        if !args.quiet {
            eprintln!(
                "{} is up to date (every file is newer than {}); nothing written",
                dir.display(),
                args.file.display()
            );
        }
        return Ok(EXIT_OK);
    }
    if !args.quiet {
        report_rendered(&plan, &set, opts.format, dir);
    }
    Ok(EXIT_OK)
}

/// The plan options of the arguments: `--unit`, `--labels`, `--style`, `--format`, and the
/// pieces' `--class` and `--name` overrides.
fn plan_options(args: &RenderArgs) -> Result<PlanOptions, (u8, String)> {
    let usage = |m: String| (EXIT_USAGE, m);
    let mut opts = PlanOptions {
        unit: args.unit,
        redraw: args.unit.is_some() || args.labels,
        style: args.style.map(StyleArg::sheet_style),
        format: match args.format {
            OutFormat::Bmp => ImageFormat::Bmp,
            OutFormat::Png => ImageFormat::Png,
        },
        ..Default::default()
    };
    for c in &args.classes {
        let (piece, class) = c
            .split_once('=')
            .ok_or_else(|| usage(format!("--class {c:?}: expected PIECE=CLASS")))?;
        let class = ColourClass::ALL
            .into_iter()
            .find(|k| k.slug() == class)
            .ok_or_else(|| {
                let names: Vec<&str> = ColourClass::ALL.iter().map(|k| k.slug()).collect();
                usage(format!(
                    "--class {c:?}: unknown class {class:?}; expected one of {}",
                    names.join(", ")
                ))
            })?;
        opts.classes.insert(piece.to_string(), class);
    }
    for n in &args.names {
        let (piece, text) = n
            .split_once('=')
            .ok_or_else(|| usage(format!("--name {n:?}: expected PIECE=TEXT")))?;
        opts.names.insert(piece.to_string(), text.to_string());
    }
    Ok(opts)
}

/// Files to write, each with its bytes.
type SetFiles = Vec<(PathBuf, Vec<u8>)>;

/// The files to write: the set's images (each under the output folder), the rule-file
/// fragment, the manifest and, with `--start`, the start position.
fn set_files(
    args: &RenderArgs,
    (doc, game, plan): (&Document, usize, &zogkit::render::RenderPlan),
    set: &zogkit::render::set::RenderedSet,
    source_encoding: Option<Encoding>,
) -> Result<SetFiles, (u8, String)> {
    let dir = &args.output;
    let mut files = Vec::with_capacity(set.files.len() + 2);
    for f in &set.files {
        let path = join(dir, &f.path).ok_or_else(|| {
            (
                EXIT_ERRORS,
                format!(
                    "image path {:?} would leave {}; nothing was written",
                    f.path,
                    dir.display()
                ),
            )
        })?;
        files.push((path, f.bytes.clone()));
    }
    // The fragment in the rule file's own encoding when it can hold it (ZoG reads Shift_JIS
    // rule files byte-wise), otherwise UTF-8.
    let fragment = source_encoding
        .and_then(|e| zogkit::text::encode(&set.fragment, e).ok())
        .unwrap_or_else(|| set.fragment.clone().into_bytes());
    files.push((dir.join(FRAGMENT_FILE), fragment));
    let manifest = serde_json::to_vec_pretty(&set.manifest)
        .map_err(|e| (EXIT_ERRORS, format!("manifest: {e}")))?;
    files.push((dir.join(MANIFEST_FILE), manifest));
    if args.start {
        files.push((
            dir.join("start.png"),
            start_png(args, doc, game, plan, set)?,
        ));
    }
    Ok(files)
}

/// The line that says what was rendered.
fn report_rendered(
    plan: &zogkit::render::RenderPlan,
    set: &zogkit::render::set::RenderedSet,
    format: ImageFormat,
    dir: &Path,
) {
    eprintln!(
        "rendered {:?}: {} {} board{} ({}×{}, {}), {} tiles ({}×{}) as {} into {}; all validators passed",
        plan.title,
        set.count(FileKind::Board),
        set.sheet.style.slug(),
        if set.count(FileKind::Board) == 1 {
            ""
        } else {
            "s"
        },
        set.boards[0].width(),
        set.boards[0].height(),
        if plan.board.grid.is_some() {
            "laid out by zogkit"
        } else {
            "at the rule file's own rectangles"
        },
        set.count(FileKind::Tile),
        set.tiles
            .first()
            .and_then(|t| t.first())
            .map_or(0, |t| t.width()),
        set.tiles
            .first()
            .and_then(|t| t.first())
            .map_or(0, |t| t.height()),
        format.extension(),
        dir.display()
    );
}

/// Writes the set's files after checking them all (so a refusal writes nothing): an existing
/// file needs `--force`, or `--update` when it is older than the input. Returns `false` when
/// `--update` found every file up to date and wrote nothing.
fn write_set(args: &RenderArgs, files: &[(PathBuf, Vec<u8>)]) -> Result<bool, (u8, String)> {
    let existing = Existing::new(args.force, args.update);
    let input = Some(args.file.as_path()).filter(|p| !output::is_stdout(p));
    let mut current = 0;
    for (path, _) in files {
        match output::plan(path, existing, input) {
            Ok(Plan::Write) => {}
            Ok(Plan::UpToDate) => current += 1,
            Err(e) => return Err((EXIT_USAGE, format!("{e}; nothing was written"))),
        }
    }
    if current == files.len() {
        return Ok(false);
    }
    output::usable_dir(&args.output).map_err(|e| (EXIT_USAGE, e))?;
    // Held open while the set is written: a folder swapped meanwhile cannot redirect it.
    let held = super::output_dir::OutputDir::open(&args.output).map_err(|e| (EXIT_USAGE, e))?;
    let pb = progress(files.len(), args.quiet);
    for (path, bytes) in files {
        let replace = existing != Existing::Refuse && held.metadata(path).is_some();
        held.write(path, bytes, replace)
            .map_err(|e| (EXIT_USAGE, e))?;
        pb.inc(1);
    }
    pb.finish_and_clear();
    Ok(true)
}

/// `dir` joined with a `/`-separated relative path, or `None` when the path could lead out of
/// `dir` (absolute, `..`, a drive): the plan only holds names from `safe_relative`, and this
/// check keeps every write inside `-o` whatever the plan holds.
fn join(dir: &Path, rel: &str) -> Option<PathBuf> {
    if zogkit::render::game::safe_relative(rel).as_deref() != Some(rel) {
        return None;
    }
    let mut p = dir.to_path_buf();
    for c in rel.split('/') {
        p.push(c);
    }
    Some(p)
}

/// Reads the input into a spec document (errors are printed), with the text encoding of ZRF input.
fn load(file: &Path, from: Option<Format>) -> Result<(Document, Option<Encoding>), (u8, String)> {
    let (doc, fmt) = super::load_document(file, from)?;
    let enc = if fmt == Format::Zrf {
        doc.source.encoding
    } else {
        None
    };
    Ok((doc, enc))
}

/// The game selected by `--game` (1-based index or title), or the first game.
fn pick_game(doc: &Document, sel: Option<&str>) -> Result<usize, (u8, String)> {
    super::pick_game(doc, sel).map_err(|m| (EXIT_USAGE, m))
}

/// `zogkit convert --with-images DIR`: rewrites `doc`'s image paths to the set `zogkit render`
/// wrote into `dir` (read from its `images.json`). Returns notes worth printing as warnings.
pub fn with_images(doc: &mut Document, dir: &Path) -> Result<Vec<String>, String> {
    let path = dir.join(MANIFEST_FILE);
    let bytes = super::read_bounded(&path, super::MAX_AUX_BYTES).map_err(|e| {
        format!(
            "cannot read {e} (run `zogkit render FILE -o {}` first)",
            dir.display()
        )
    })?;
    let manifest: zogkit::render::images::ImageManifest = serde_json::from_slice(&bytes)
        .map_err(|e| format!("{}: not an image manifest: {e}", path.display()))?;
    // The paths go into the written rule file, relative to DIR: none may point out of it.
    let files = manifest.board.iter().chain(
        manifest
            .pieces
            .iter()
            .flat_map(|p| p.images.iter().map(|i| &i.file)),
    );
    for f in files {
        if zogkit::render::game::safe_relative(f).as_deref() != Some(f.as_str()) {
            return Err(format!(
                "{}: image path {f:?} is not a plain relative path inside {}",
                path.display(),
                dir.display()
            ));
        }
    }
    zogkit::render::images::apply(doc, &manifest).map(|a| a.notes)
}

/// `start.png`: the start position with the author's own pictures where the rule file names
/// them, found in the collection (`--collection`, else the rule file's folder); a note for each
/// one named but not used.
fn start_png(
    args: &RenderArgs,
    doc: &Document,
    game: usize,
    plan: &zogkit::render::RenderPlan,
    set: &zogkit::render::set::RenderedSet,
) -> Result<Vec<u8>, (u8, String)> {
    let (own, mut notes) = if output::is_stdout(&args.file) {
        (OwnImages::default(), Vec::new())
    } else {
        let collection =
            Collection::of(&args.file, args.collection.as_deref()).map_err(|e| (EXIT_USAGE, e))?;
        let (files, missing) = collection.read(&args.file, doc, [game]);
        let (own, mut notes) = OwnImages::of(doc, game, plan, &files);
        for n in &mut notes {
            n.push_str("; drawn instead");
        }
        notes.extend(collection.missing_note(&missing));
        (own, notes)
    };
    if args.quiet {
        notes.clear();
    }
    for n in notes {
        eprintln!("note: start.png: {n}");
    }
    if !args.quiet && !own.is_empty() {
        let pieces = own.tiles.iter().flatten().flatten().count();
        eprintln!(
            "start.png: with the author's {}{pieces} piece picture{}",
            if own.board.is_some() {
                "board and "
            } else {
                ""
            },
            if pieces == 1 { "" } else { "s" }
        );
    }
    compose_start_with(plan, set, &own)
        .encode_png()
        .map_err(|e| (EXIT_ERRORS, format!("start.png: {e}")))
}
