// Package plextest is a fake Plex Media Server for tests: the endpoints
// Hearth calls, answering in the documented wire format.
//
// Sources of the format (kept here so the fake can be checked against them):
//   - LukeHagar/plex-api-spec (commit ae9507e, 2026-02), description.md
//     "Pagination": a client asks with the X-Plex-Container-Start and
//     X-Plex-Container-Size headers; a server may force pagination and send
//     fewer items than asked; a paged answer carries the headers
//     X-Plex-Container-Start and X-Plex-Container-Total-Size, and its
//     MediaContainer the offset, size (items in this answer) and totalSize
//     attributes. "All X-Plex- headers can also be sent as query string
//     arguments". JSON only when asked with Accept: application/json.
//   - the same spec's plex-api-spec.yaml: GET /identity needs no token
//     (security: - {}) and answers MediaContainer.machineIdentifier;
//     /library/sections lists Directory entries (key, title, type);
//     /library/sections/{id}/all lists Metadata with
//     librarySectionID/-Title on the container; an item's thumb is a path
//     like /library/metadata/265/thumb/1715112705.
//   - pkkid/python-plexapi 4.16.1 (commit a8d051f) plexapi/base.py
//     fetchItems: the same paging headers; mixins.py thumbUrl: an episode
//     falls back to parentThumb, then grandparentThumb.
//
// The search, metadata, collection and label endpoints (writes.go) follow
// the same sources; see there.
//
// A missing or wrong X-Plex-Token is answered 401 with the HTML body
// Plex sends; an unknown path 404.
package plextest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Section is a library section and what it holds.
type Section struct {
	Key, Title, Type string // Type: show, movie, artist, photo
	// Top are the section's shows or movies (/all); Episodes the shows'
	// episodes (/all?type=4).
	Top, Episodes []Item
}

// Item is one Metadata entry.
type Item struct {
	RatingKey, Type, Title string
	// Show is an episode's grandparentRatingKey; Season its parentIndex.
	Show          string
	Season, Index int
	DurationMS    int64
	Thumb         string
	// GrandparentThumb is an episode's show picture.
	GrandparentThumb string
	// Labels are the item's labels (Label[].tag); label writes change them.
	Labels []string
}

// Image is a picture the server serves at a thumb path.
type Image struct {
	ContentType string
	Body        []byte
}

// Request is one request the server answered.
type Request struct {
	// Method is GET for reads; POST and PUT are writes (Writes).
	Method      string
	Path, Query string
	// Start and Size are the paging asked for (-1: not asked).
	Start, Size int
	// Token is the X-Plex-Token header sent; TokenInURL the query one.
	Token, TokenInURL string
}

// Server is a fake Plex Media Server. Change its fields with Set.
type Server struct {
	*httptest.Server
	Token, Machine string
	mu             sync.Mutex
	sections       []Section
	images         map[string]Image
	requests       []Request
	collections    []Collection
	players        playback // players.go
	// PageCap is the most entries an answer holds whatever was asked
	// (a server forcing pagination); 0: as asked.
	PageCap int
	// ExtraTotal is added to the total the server reports (a server
	// reporting more items than it sends).
	ExtraTotal int
	// IgnoreStart answers every page from the first entry.
	IgnoreStart bool
	// TotalInHeaderOnly leaves totalSize and offset out of the body (the
	// headers still carry them).
	TotalInHeaderOnly bool
	// Down drops every connection without an answer.
	Down bool
}

// New starts a server holding sections, demanding token.
func New(tb testing.TB, token string, sections ...Section) *Server {
	tb.Helper()
	s := &Server{Token: token, Machine: "abc123machine", sections: sections, images: map[string]Image{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	tb.Cleanup(s.Close)
	return s
}

// Set changes the server's behaviour fields (PageCap, ExtraTotal…) under
// its lock: requests may be running.
func (s *Server) Set(change func(*Server)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	change(s)
}

// SetImage serves img at path (a thumb path).
func (s *Server) SetImage(path string, img Image) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.images[path] = img
}

// SetSections replaces what the server holds.
func (s *Server) SetSections(sections ...Section) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sections = sections
}

// SetDown makes the server drop connections (true) or answer again.
func (s *Server) SetDown(down bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Down = down
}

// Requests returns the requests answered so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Count counts the requests for path.
func (s *Server) Count(path string) int {
	n := 0
	for _, r := range s.Requests() {
		if r.Path == path {
			n++
		}
	}
	return n
}

// JPEG encodes a w×h picture of one colour: real JPEG bytes.
func JPEG(w, h int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{R: 200, G: 90, B: 40, A: 255})
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, nil); err != nil {
		panic(err)
	}
	return b.Bytes()
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.Down {
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				_ = conn.Close()
				return
			}
		}
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	start, size := pageParam(r, "X-Plex-Container-Start"), pageParam(r, "X-Plex-Container-Size")
	s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Start: start, Size: size,
		Token: r.Header.Get("X-Plex-Token"), TokenInURL: r.URL.Query().Get("X-Plex-Token")})
	if r.URL.Path == "/identity" { // no token needed
		s.json(w, r, map[string]any{"size": 0, "apiVersion": "1.1.1", "claimed": true,
			"machineIdentifier": s.Machine, "version": "1.42.2.10156-f737b826c"})
		return
	}
	if tok := r.Header.Get("X-Plex-Token"); tok == "" || tok != s.Token {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = fmt.Fprint(w, "<html><head><title>Unauthorized</title></head><body><h1>401 Unauthorized</h1></body></html>")
		return
	}
	if img, ok := s.images[r.URL.Path]; ok {
		w.Header().Set("Content-Type", img.ContentType)
		w.Header().Set("Content-Length", strconv.Itoa(len(img.Body)))
		_, _ = w.Write(img.Body)
		return
	}
	if r.URL.Path == "/library/sections" || r.URL.Path == "/library/sections/all" {
		dirs := make([]map[string]any, 0, len(s.sections))
		for _, sec := range s.sections {
			dirs = append(dirs, map[string]any{"allowSync": true, "key": sec.Key, "type": sec.Type, "title": sec.Title,
				"agent": "tv.plex.agents.series", "scanner": "Plex TV Series", "language": "en-US", "uuid": "u-" + sec.Key})
		}
		s.json(w, r, map[string]any{"size": len(dirs), "allowSync": false, "title1": "Plex Library", "Directory": dirs})
		return
	}
	if s.serveMore(w, r, start, size) || s.servePlayers(w, r) {
		return
	}
	key, ok := strings.CutPrefix(r.URL.Path, "/library/sections/")
	key, all := strings.CutSuffix(key, "/all")
	if ok && all && r.Method == http.MethodGet {
		for _, sec := range s.sections {
			if sec.Key == key {
				s.listing(w, r, sec, start, size)
				return
			}
		}
	}
	w.Header().Set("Content-Type", "text/html")
	w.WriteHeader(http.StatusNotFound)
	_, _ = fmt.Fprint(w, "<html><head><title>Not Found</title></head><body><h1>404 Not Found</h1></body></html>")
}

// pageParam reads a paging header, or the same name as a query argument.
func pageParam(r *http.Request, name string) int {
	v := r.Header.Get(name)
	if v == "" {
		v = r.URL.Query().Get(name)
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return -1
	}
	return n
}

// listing answers /library/sections/{id}/all, paged as asked (within PageCap).
func (s *Server) listing(w http.ResponseWriter, r *http.Request, sec Section, start, size int) {
	entries, view := sec.Top, sec.Type
	if r.URL.Query().Get("type") == "4" {
		entries, view = sec.Episodes, "episode"
	}
	md := make([]map[string]any, 0, len(entries))
	for _, it := range entries {
		m := it.metadata()
		m["librarySectionID"] = number(sec.Key)
		md = append(md, m)
	}
	c := map[string]any{"allowSync": true, "art": "/:/resources/show-fanart.jpg",
		"identifier": "com.plexapp.plugins.library", "librarySectionID": number(sec.Key), "librarySectionTitle": sec.Title,
		"librarySectionUUID": "u-" + sec.Key, "mediaTagPrefix": "/system/bundle/media/flags/", "title1": sec.Title, "viewGroup": view}
	s.paged(w, r, c, md, start, size)
}

// paged answers entries in container c, paged as asked (within PageCap).
func (s *Server) paged(w http.ResponseWriter, r *http.Request, c map[string]any, entries []map[string]any, start, size int) {
	total := len(entries)
	from, n := 0, total
	if start >= 0 && !s.IgnoreStart {
		from = min(start, total)
	}
	if size >= 0 {
		n = size
	}
	if s.PageCap > 0 {
		n = min(n, s.PageCap)
	}
	to := min(from+n, total)
	page := entries[from:to]
	c["size"] = len(page)
	if !s.TotalInHeaderOnly {
		c["totalSize"], c["offset"] = total+s.ExtraTotal, from
	}
	if len(page) > 0 { // Plex leaves an empty Metadata out
		c["Metadata"] = page
	}
	w.Header().Set("X-Plex-Container-Start", strconv.Itoa(from))
	w.Header().Set("X-Plex-Container-Total-Size", strconv.Itoa(total+s.ExtraTotal))
	s.json(w, r, c)
}

// number is a section key as Plex writes librarySectionID: a number.
func number(key string) any {
	if n, err := strconv.Atoi(key); err == nil {
		return n
	}
	return key
}

func (it Item) metadata() map[string]any {
	m := map[string]any{"ratingKey": it.RatingKey, "key": "/library/metadata/" + it.RatingKey, "guid": "plex://" + it.Type + "/" + it.RatingKey,
		"type": it.Type, "title": it.Title, "summary": "", "addedAt": 1700000000, "updatedAt": 1700000001}
	if it.Thumb != "" {
		m["thumb"] = it.Thumb
	}
	switch it.Type {
	case "show":
		m["key"] = "/library/metadata/" + it.RatingKey + "/children"
	case "episode":
		m["grandparentRatingKey"], m["parentIndex"], m["index"] = it.Show, it.Season, it.Index
		if it.GrandparentThumb != "" {
			m["grandparentThumb"] = it.GrandparentThumb
		}
	}
	if len(it.Labels) > 0 { // python-plexapi media.Label: a tag list {"id", "filter", "tag"}
		ls := make([]map[string]any, 0, len(it.Labels))
		for i, l := range it.Labels {
			ls = append(ls, map[string]any{"id": 700 + i, "filter": "label=" + strconv.Itoa(700+i), "tag": l})
		}
		m["Label"] = ls
	}
	if it.DurationMS > 0 {
		m["duration"] = it.DurationMS
		m["Media"] = []map[string]any{{"id": 5000, "duration": it.DurationMS, "videoResolution": "1080",
			"Part": []map[string]any{{"id": 6000, "key": "/library/parts/" + it.RatingKey + "/1700000000/file.mp4", "duration": it.DurationMS}}}}
	}
	return m
}

// json writes {"MediaContainer": c} when JSON was asked for; Plex's
// default is XML, which Hearth never asks for.
func (s *Server) json(w http.ResponseWriter, r *http.Request, c map[string]any) {
	if r.Header.Get("Accept") != "application/json" {
		w.Header().Set("Content-Type", "text/xml;charset=utf-8")
		_, _ = fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?><MediaContainer size="0"></MediaContainer>`)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"MediaContainer": c})
}

// Library builds a show section of shows × episodes (each with a
// duration and a thumb), a common fixture.
func Library(key, title string, shows, episodes int) Section {
	sec := Section{Key: key, Title: title, Type: "show"}
	for i := range shows {
		rk := strconv.Itoa(100 + i)
		sec.Top = append(sec.Top, Item{RatingKey: rk, Type: "show", Title: fmt.Sprintf("Show %d", i+1),
			Thumb: "/library/metadata/" + rk + "/thumb/1700000001"})
		for e := range episodes {
			erk := strconv.Itoa(10000 + i*1000 + e)
			sec.Episodes = append(sec.Episodes, Item{RatingKey: erk, Type: "episode", Title: fmt.Sprintf("Workout %d", e+1),
				Show: rk, Season: 1, Index: e + 1, DurationMS: 1_800_000, Thumb: "/library/metadata/" + erk + "/thumb/1700000002"})
		}
	}
	return sec
}
