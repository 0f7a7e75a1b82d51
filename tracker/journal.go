package tracker

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/tablecam/tablecam/models"
)

// EntryKind says what a journal entry records.
type EntryKind string

const (
	// EntryStart opens a journal; Note says where the game is watched from.
	EntryStart EntryKind = "start"
	// EntryEvent is a game event, from the camera or typed by a player.
	EntryEvent EntryKind = "event"
	// EntryCorrection fixes what the camera got wrong.
	EntryCorrection EntryKind = "correction"
	// EntryUndo takes back the last batch of events or the last correction
	// that is still in force.
	EntryUndo EntryKind = "undo"
	// EntryEnd closes a journal after a clean exit; a journal without it was
	// interrupted and can be resumed.
	EntryEnd EntryKind = "end"
)

// Source says who produced an event.
type Source string

const (
	// Camera events come from the tracker.
	Camera Source = "camera"
	// Manual events were typed by a player.
	Manual Source = "manual"
)

// Entry is one line of a journal.
type Entry struct {
	Seq    int       `json:"seq"`
	At     time.Time `json:"at"`
	Kind   EntryKind `json:"kind"`
	Source Source    `json:"source,omitempty"`
	// Batch groups the events that one frame (or one command) produced, so
	// that an undo takes them back together.
	Batch int `json:"batch,omitempty"`
	// BatchSize (events) is the number of events in the batch. The batch is
	// written at once, but a crash can still cut it short on disk; a last
	// batch found with fewer events than this is cut off on reading, so that
	// a resumed game reads its frames again rather than keeping half of
	// what they showed. 0 (journals before it) means unknown.
	BatchSize  int                `json:"batch_size,omitempty"`
	Event      *models.Event      `json:"event,omitempty"`
	Correction *models.Correction `json:"correction,omitempty"`
	// Target is the entry a correction acts on, resolved when it was made:
	// the event dropped, or the event that brought the corrected card into play.
	Target int `json:"target,omitempty"`
	// Slot picks the Avatar when Target is game_start: 1 south, 2 north.
	Slot models.Player `json:"slot,omitempty"`
	// Note (start) says where the game is watched from.
	Note string `json:"note,omitempty"`
	// Hidden (camera events) lists the cards the tracker held hidden under
	// others after the event's frame, so that a restart knows them.
	Hidden []HiddenCard `json:"hidden,omitempty"`
	// Catalog (start) is the catalog the game's cards are named from, so
	// that a replay reads them the same way.
	Catalog string `json:"catalog,omitempty"`
}

// Journal is an append-only JSONL file of entries. Each entry (each batch,
// with AppendBatch) is written and synced to disk before Append returns, so
// a crash loses nothing that was reported as recorded.
type Journal struct {
	path string
	f    *os.File
	seq  int
}

// DefaultJournalDir is $XDG_DATA_HOME/tablecam/journals, or
// ~/.local/share/tablecam/journals.
func DefaultJournalDir() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "tablecam", "journals"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("journal folder: %w", err)
	}
	return filepath.Join(home, ".local", "share", "tablecam", "journals"), nil
}

// NewJournalPath names a new journal in dir after the time.
func NewJournalPath(dir string, now time.Time) string {
	return filepath.Join(dir, now.UTC().Format("2006-01-02T15-04-05.000Z")+".jsonl")
}

// CreateJournal starts a new journal at path; the file must not exist.
func CreateJournal(path string) (*Journal, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	return &Journal{path: path, f: f}, nil
}

// TornLine reports the end of a journal that a crash cut short: a last
// line cut short, or a last batch of events only partly written (Batch is
// then its number, Written and Size its events on disk and in all). The
// entries from Offset on are skipped.
type TornLine struct {
	Path   string
	Line   int
	Offset int64
	Text   string

	Batch, Written, Size int
}

func (t *TornLine) Error() string {
	if t.Batch > 0 {
		return fmt.Sprintf("%s:%d: the last batch of events (batch %d) was cut short at byte %d: %d of its %d events written, skipped", t.Path, t.Line, t.Batch, t.Offset, t.Written, t.Size)
	}
	text := t.Text
	if len(text) > 60 {
		text = text[:60] + "…"
	}
	return fmt.Sprintf("%s:%d: last line cut short at byte %d (%q), skipped", t.Path, t.Line, t.Offset, text)
}

// cut reports whether the file must be truncated at Offset to drop what
// is torn (rather than given the newline a whole last entry lacks).
func (t *TornLine) cut() bool { return t.Text != "" || t.Batch > 0 }

// ErrBadJournal is wrapped by ReadJournal when a line other than the last
// cannot be read.
var ErrBadJournal = errors.New("bad journal")

// ReadJournal reads every entry of a journal. A last line cut short by a
// crash is skipped and described by torn; any other bad line is an error
// naming the file and the line.
func ReadJournal(path string) (entries []Entry, torn *TornLine, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("journal: %w", err)
	}
	return parseJournal(path, data)
}

func parseJournal(path string, data []byte) ([]Entry, *TornLine, error) {
	entries, starts, torn, err := parseLines(path, data)
	if err != nil {
		return entries, nil, err
	}
	if cut := partialBatch(path, entries, starts); cut != nil {
		return entries[:len(entries)-cut.Written], cut, nil
	}
	return entries, torn, nil
}

// entryStart is where an entry's line starts in the file.
type entryStart struct {
	line   int
	offset int64
}

// parseLines reads the entries of a journal's lines, with where each starts.
func parseLines(path string, data []byte) ([]Entry, []entryStart, *TornLine, error) {
	var (
		entries []Entry
		starts  []entryStart
	)
	r := bufio.NewReader(bytes.NewReader(data))
	var offset int64
	for line := 1; ; line++ {
		text, err := r.ReadBytes('\n')
		if err == io.EOF && len(text) == 0 {
			return entries, starts, nil, nil
		}
		complete := err == nil
		trimmed := bytes.TrimSpace(text)
		if len(trimmed) > 0 {
			var e Entry
			if jerr := json.Unmarshal(trimmed, &e); jerr != nil || e.Kind == "" {
				if !complete {
					return entries, starts, &TornLine{Path: path, Line: line, Offset: offset, Text: string(text)}, nil
				}
				if jerr == nil {
					jerr = errors.New("no kind")
				}
				return entries, starts, nil, fmt.Errorf("%s:%d (byte %d): %w: %v", path, line, offset, ErrBadJournal, jerr)
			}
			entries, starts = append(entries, e), append(starts, entryStart{line, offset})
			if !complete {
				// A whole entry without its newline: the crash came just before it.
				return entries, starts, &TornLine{Path: path, Line: line, Offset: offset + int64(len(text)), Text: ""}, nil
			}
		}
		offset += int64(len(text))
		if !complete {
			return entries, starts, nil, nil
		}
	}
}

// partialBatch finds a last batch of events that has fewer entries on disk
// than its size says; nil when the journal ends on a whole batch.
func partialBatch(path string, entries []Entry, starts []entryStart) *TornLine {
	n := len(entries)
	if n == 0 {
		return nil
	}
	last := entries[n-1]
	if last.Kind != EntryEvent || last.Batch == 0 || last.BatchSize == 0 {
		return nil
	}
	first := n - 1
	for first > 0 && entries[first-1].Kind == EntryEvent && entries[first-1].Batch == last.Batch {
		first--
	}
	if written := n - first; written < last.BatchSize {
		return &TornLine{Path: path, Line: starts[first].line, Offset: starts[first].offset, Batch: last.Batch, Written: written, Size: last.BatchSize}
	}
	return nil
}

// ResumeJournal opens an existing journal to add to it, and gives its
// entries. A last line cut short by a crash is reported in torn and cut
// off, so that new entries start on a line of their own.
func ResumeJournal(path string) (j *Journal, entries []Entry, torn *TornLine, err error) {
	entries, torn, err = ReadJournal(path)
	if err != nil {
		return nil, nil, nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0o644)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("journal: %w", err)
	}
	if torn != nil {
		if torn.cut() {
			err = f.Truncate(torn.Offset)
		} else {
			_, err = f.WriteAt([]byte("\n"), torn.Offset)
		}
		if err == nil {
			err = f.Sync()
		}
		if err != nil {
			f.Close()
			return nil, nil, nil, fmt.Errorf("journal %s: %w", path, err)
		}
	}
	if _, err := f.Seek(0, io.SeekEnd); err != nil {
		f.Close()
		return nil, nil, nil, fmt.Errorf("journal %s: %w", path, err)
	}
	j = &Journal{path: path, f: f}
	for _, e := range entries {
		j.seq = max(j.seq, e.Seq)
	}
	return j, entries, torn, nil
}

// Path is the journal's file.
func (j *Journal) Path() string { return j.path }

// Append numbers the entry, stamps it with the time, writes it as one line
// and syncs the file.
func (j *Journal) Append(e Entry) (Entry, error) {
	es, err := j.AppendBatch([]Entry{e})
	if err != nil {
		return e, err
	}
	return es[0], nil
}

// AppendBatch is Append for entries that stand or fall together (one
// frame's events): they are written in one write and synced once, so that a
// crash leaves all or, rarely, a part that the next read cuts off (see
// Entry.BatchSize), never a half batch in force.
func (j *Journal) AppendBatch(es []Entry) ([]Entry, error) {
	out := make([]Entry, len(es))
	var buf bytes.Buffer
	now := time.Now().UTC()
	for i, e := range es {
		e.Seq = j.seq + i + 1
		if e.At.IsZero() {
			e.At = now
		}
		line, err := json.Marshal(e)
		if err != nil {
			return nil, fmt.Errorf("journal %s: %w", j.path, err)
		}
		buf.Write(line)
		buf.WriteByte('\n')
		out[i] = e
	}
	if _, err := j.f.Write(buf.Bytes()); err != nil {
		return nil, fmt.Errorf("journal %s: %w", j.path, err)
	}
	if err := j.f.Sync(); err != nil {
		return nil, fmt.Errorf("journal %s: %w", j.path, err)
	}
	j.seq += len(es)
	return out, nil
}

// Close closes the file. It does not write EntryEnd: call Append for that on
// a clean exit.
func (j *Journal) Close() error { return j.f.Close() }

// Unfinished lists the journals in dir that have no EntryEnd, newest first:
// games that a crash interrupted and that can be resumed.
func Unfinished(dir string) ([]string, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	sort.Sort(sort.Reverse(sort.StringSlice(names)))
	var out []string
	for _, n := range names {
		entries, _, err := ReadJournal(n)
		if err != nil || len(entries) == 0 {
			continue
		}
		if entries[len(entries)-1].Kind != EntryEnd && !strings.HasPrefix(filepath.Base(n), ".") {
			out = append(out, n)
		}
	}
	return out, nil
}
