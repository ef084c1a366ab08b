package content

import (
	"container/list"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"hearth/internal/apperr"
)

// Bounds of the thumbnail cache.
const (
	// MaxThumbBytes is the largest picture fetched from Plex.
	MaxThumbBytes = 10 << 20
	// MinThumbCacheBytes is the smallest cache allowed: any picture fits.
	MinThumbCacheBytes = 2 * MaxThumbBytes
	// DefaultThumbCacheBytes is the cache's default size.
	DefaultThumbCacheBytes = 256 << 20
	// thumbFetchTimeout bounds one fetch from Plex: a page of pictures
	// waits at most this long for a Plex that does not answer.
	thumbFetchTimeout = 10 * time.Second
)

// thumbTypes are the picture types taken from Plex, with their file
// extension. Raster only: SVG or HTML served from Hearth's origin could
// carry script.
var thumbTypes = map[string]string{"image/jpeg": ".jpg", "image/png": ".png", "image/gif": ".gif", "image/webp": ".webp"}

// PlexThumbs serves the catalog's Plex thumbnails (PlexThumbPrefix) from a
// cache on disk, fetching a missing one from Plex server-side with the
// token in a header: the browser only ever sees Hearth's URL. Only items
// in the catalog are fetched, at the path the sync stored (no open proxy).
// The cache holds at most limit bytes and drops the least recently used
// pictures first; it survives restarts (last use is the file's mtime).
type PlexThumbs struct {
	catalog *Catalog
	plex    PlexConnect // asked on each fetch, so new settings apply at once (cached pictures serve without it)
	dir     string
	limit   int64
	log     *slog.Logger

	mu       sync.Mutex
	lru      *list.List               // *thumbEntry, least recently used first
	entries  map[string]*list.Element // by file name
	used     int64
	inflight map[string]*thumbFetch
}

type thumbEntry struct {
	name string
	size int64
}

// thumbFetch is one fetch from Plex that concurrent requests share.
type thumbFetch struct {
	done chan struct{}
	err  error
}

// ThumbFile is an open cached picture; the caller closes it.
type ThumbFile struct {
	*os.File
	ContentType string
	// ETag names this picture (it changes when Plex's artwork changes).
	ETag string
}

// PlexConnect is the Plex client for the settings in force now, or why
// there is none (Plex not configured).
type PlexConnect func(ctx context.Context) (*PlexClient, error)

// StaticPlex is a PlexConnect that always gives px; a nil px is "Plex is
// not configured".
func StaticPlex(px *PlexClient) PlexConnect {
	return func(context.Context) (*PlexClient, error) {
		if px == nil {
			return nil, apperr.New(apperr.Unavailable, "Plex is not configured")
		}
		return px, nil
	}
}

// NewPlexThumbs opens the cache in dir (created if missing), keeping at
// most limit bytes (at least MinThumbCacheBytes). connect is asked for a
// client on each fetch from Plex; nil is StaticPlex(nil).
func NewPlexThumbs(c *Catalog, connect PlexConnect, dir string, limit int64, log *slog.Logger) (*PlexThumbs, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if connect == nil {
		connect = StaticPlex(nil)
	}
	t := &PlexThumbs{catalog: c, plex: connect, dir: dir, limit: max(limit, MinThumbCacheBytes), log: log,
		lru: list.New(), entries: map[string]*list.Element{}, inflight: map[string]*thumbFetch{}}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("content: thumbnail cache: %w", err)
	}
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("content: thumbnail cache: %w", err)
	}
	type found struct {
		name string
		size int64
		used time.Time
	}
	var files []found
	for _, de := range des {
		info, err := de.Info()
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		if !cachedName(de.Name()) { // a write cut short, or not ours
			_ = os.Remove(filepath.Join(dir, de.Name()))
			continue
		}
		files = append(files, found{de.Name(), info.Size(), info.ModTime()})
	}
	slices.SortFunc(files, func(a, b found) int { return a.used.Compare(b.used) })
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, f := range files {
		t.entries[f.name] = t.lru.PushBack(&thumbEntry{f.name, f.size})
		t.used += f.size
	}
	t.evictLocked("")
	return t, nil
}

// cachedName reports whether name is a cache file: a hash and a picture extension.
func cachedName(name string) bool {
	base, ext, _ := strings.Cut(name, ".")
	if len(base) != 32 || strings.Trim(base, "0123456789abcdef") != "" {
		return false
	}
	for _, e := range thumbTypes {
		if "."+ext == e {
			return true
		}
	}
	return false
}

// Used returns the bytes the cache holds.
func (t *PlexThumbs) Used() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.used
}

// Open returns the thumbnail of the catalog item plex:<ratingKey>. An
// unknown item, or one without a picture, is apperr.NotFound; Plex not
// configured, down or answering with something else is apperr.Unavailable.
func (t *PlexThumbs) Open(ctx context.Context, ratingKey string) (ThumbFile, error) {
	if !plexKeyPattern.MatchString(ratingKey) {
		return ThumbFile{}, apperr.NotFoundf("no Plex item %q", ratingKey)
	}
	it, err := t.catalog.Get(ctx, "plex:"+ratingKey)
	if err != nil {
		return ThumbFile{}, err
	}
	if it.SourceThumb == "" {
		return ThumbFile{}, apperr.NotFoundf("Plex has no picture for %q", it.Title)
	}
	sum := sha256.Sum256([]byte(it.SourceThumb))
	key := hex.EncodeToString(sum[:16])
	for range 2 { // a picture evicted between the fetch and the open is fetched again
		if f, ok := t.openCached(key); ok {
			return f, nil
		}
		if err := t.fetch(ctx, key, it.SourceThumb); err != nil {
			return ThumbFile{}, err
		}
	}
	return ThumbFile{}, apperr.New(apperr.Unavailable, "the thumbnail cache could not keep the picture")
}

// openCached opens a cached picture and marks it used.
func (t *PlexThumbs) openCached(key string) (ThumbFile, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for ctype, ext := range thumbTypes {
		el, ok := t.entries[key+ext]
		if !ok {
			continue
		}
		path := filepath.Join(t.dir, key+ext)
		f, err := os.Open(path)
		if err != nil { // removed behind our back
			t.dropLocked(el)
			return ThumbFile{}, false
		}
		t.lru.MoveToBack(el)
		now := time.Now()
		_ = os.Chtimes(path, now, now) // last use survives a restart
		return ThumbFile{File: f, ContentType: ctype, ETag: `"` + key + `"`}, true
	}
	return ThumbFile{}, false
}

// fetch gets a picture from Plex into the cache; concurrent calls for the
// same picture wait for one fetch.
func (t *PlexThumbs) fetch(ctx context.Context, key, source string) error {
	t.mu.Lock()
	if call, ok := t.inflight[key]; ok {
		t.mu.Unlock()
		select {
		case <-call.done:
			return call.err
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	call := &thumbFetch{done: make(chan struct{})}
	t.inflight[key] = call
	t.mu.Unlock()
	// The fetch outlives the request that started it (others may wait on
	// it, and the picture is kept), within its own bound.
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), thumbFetchTimeout)
	defer cancel()
	call.err = t.download(fctx, key, source)
	t.mu.Lock()
	delete(t.inflight, key)
	t.mu.Unlock()
	close(call.done)
	return call.err
}

// download fetches source from Plex and stores it as key, then trims the cache.
func (t *PlexThumbs) download(ctx context.Context, key, source string) error {
	px, err := t.plex(ctx)
	if err != nil {
		return &apperr.Error{Code: apperr.Unavailable, Message: "Plex is not configured", Err: err}
	}
	body, ctype, err := px.OpenThumb(ctx, source)
	if apperr.Is(err, apperr.NotFound) {
		return err
	}
	if err != nil {
		return &apperr.Error{Code: apperr.Unavailable, Message: "Plex did not send the picture", Err: err}
	}
	defer body.Close()
	data, err := io.ReadAll(io.LimitReader(body, MaxThumbBytes+1))
	if err != nil {
		return &apperr.Error{Code: apperr.Unavailable, Message: "Plex did not send the whole picture", Err: err}
	}
	ext, ok := thumbTypes[ctype]
	if !ok || len(data) > MaxThumbBytes || http.DetectContentType(data) != ctype {
		return apperr.New(apperr.Unavailable, "Plex sent something other than a picture of at most %d MiB (%s, %d bytes)",
			MaxThumbBytes>>20, ctype, len(data))
	}
	name := key + ext
	tmp, err := os.CreateTemp(t.dir, "fetch-*")
	if err != nil {
		return fmt.Errorf("content: thumbnail cache: %w", err)
	}
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), filepath.Join(t.dir, name))
	}
	if werr != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("content: thumbnail cache: %w", werr)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if el, ok := t.entries[name]; ok {
		t.dropLocked(el)
	}
	t.entries[name] = t.lru.PushBack(&thumbEntry{name, int64(len(data))})
	t.used += int64(len(data))
	t.evictLocked(name)
	return nil
}

// evictLocked removes the least recently used pictures until the cache
// fits its limit, keeping keep (the picture just stored).
func (t *PlexThumbs) evictLocked(keep string) {
	for el := t.lru.Front(); el != nil && t.used > t.limit; {
		next := el.Next()
		if e := el.Value.(*thumbEntry); e.name != keep {
			if err := os.Remove(filepath.Join(t.dir, e.name)); err != nil && !errors.Is(err, os.ErrNotExist) {
				t.log.Warn("thumbnail cache: remove", "file", e.name, "err", err)
			}
			t.dropLocked(el)
		}
		el = next
	}
}

func (t *PlexThumbs) dropLocked(el *list.Element) {
	e := t.lru.Remove(el).(*thumbEntry)
	delete(t.entries, e.name)
	t.used -= e.size
}
