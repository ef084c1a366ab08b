package plextest

import (
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The curation endpoints, as Plex and python-plexapi 4.16.1 (commit
// a8d051f) use them:
//   - GET /hubs/search?query=&sectionId=&limit= answers MediaContainer.Hub[]
//     (type, hubIdentifier, size, more, Metadata[]); limit is per hub
//     (plex-api-spec ae9507e "searchHubs"; python-plexapi server.py search).
//   - GET /library/metadata/{ratingKey} answers Metadata[0] with Label[]
//     and librarySectionID (spec; python-plexapi media.Label).
//   - GET /library/sections/{id}/collections lists Metadata of type
//     collection (ratingKey, title, subtype, childCount, smart), paged
//     (spec "getCollections"); GET /library/collections/{id}/items the
//     collection's items, paged (spec "getCollectionItems").
//   - POST /library/collections?type=&title=&smart=0&sectionId=&uri= with
//     uri = server://{machineIdentifier}/com.plexapp.plugins.library/library/metadata/{k1,k2}
//     creates a regular collection and answers it as Metadata[0]; 400
//     without a uri or section (spec "createCollection"; python-plexapi
//     collection.py Collection._create).
//   - PUT /library/collections/{id}/items?uri=… adds the items; 404 for an
//     unknown collection (spec "addCollectionItems"; python-plexapi addItems).
//   - PUT /library/sections/{id}/all?type=&id=k1,k2&label[0].tag.tag=…&label.locked=1
//     sets the items' labels to the indexed list (python-plexapi
//     mixins.py editTags sends current labels plus the new ones, as if the
//     list replaces the set — so the fake replaces, and a client that sent
//     only the new label would lose the others here).

// Collection is a regular collection in a section.
type Collection struct {
	Key, Section, Title string
	// Type is the items' type (movie, episode).
	Type  string
	Items []string
}

// Writes returns the write requests (anything but GET) answered so far.
func (s *Server) Writes() []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.Method != http.MethodGet {
			out = append(out, r)
		}
	}
	return out
}

// SetCollections replaces the collections the server holds.
func (s *Server) SetCollections(cs ...Collection) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.collections = nil
	for _, c := range cs {
		c.Items = slices.Clone(c.Items)
		s.collections = append(s.collections, c)
	}
}

// Collections returns the collections the server holds now.
func (s *Server) Collections() []Collection {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Collection, len(s.collections))
	for i, c := range s.collections {
		c.Items = slices.Clone(c.Items)
		out[i] = c
	}
	return out
}

// Labels returns an item's labels now.
func (s *Server) Labels(ratingKey string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if it, _ := s.find(ratingKey); it != nil {
		return slices.Clone(it.Labels)
	}
	return nil
}

// find returns the item with ratingKey and its section (nil when none).
func (s *Server) find(ratingKey string) (*Item, *Section) {
	for i := range s.sections {
		sec := &s.sections[i]
		for _, list := range [][]Item{sec.Top, sec.Episodes} {
			for j := range list {
				if list[j].RatingKey == ratingKey {
					return &list[j], sec
				}
			}
		}
	}
	return nil, nil
}

func (s *Server) collection(key string) *Collection {
	for i := range s.collections {
		if s.collections[i].Key == key {
			return &s.collections[i]
		}
	}
	return nil
}

var (
	metadataPath    = regexp.MustCompile(`^/library/metadata/([A-Za-z0-9]+)$`)
	collectionsPath = regexp.MustCompile(`^/library/sections/([A-Za-z0-9]+)/collections$`)
	collItemsPath   = regexp.MustCompile(`^/library/collections/([A-Za-z0-9]+)/items$`)
	sectionAllPath  = regexp.MustCompile(`^/library/sections/([A-Za-z0-9]+)/all$`)
)

// serveMore answers the curation endpoints; false when r is none of them.
func (s *Server) serveMore(w http.ResponseWriter, r *http.Request, start, size int) bool {
	q := r.URL.Query()
	get, put := r.Method == http.MethodGet, r.Method == http.MethodPut
	switch {
	case get && r.URL.Path == "/hubs/search":
		s.search(w, r, q)
	case get && metadataPath.MatchString(r.URL.Path):
		key := metadataPath.FindStringSubmatch(r.URL.Path)[1]
		if it, sec := s.find(key); it != nil {
			m := it.metadata()
			m["librarySectionID"], m["librarySectionTitle"] = number(sec.Key), sec.Title
			s.json(w, r, map[string]any{"size": 1, "Metadata": []map[string]any{m}})
		} else if c := s.collection(key); c != nil {
			s.json(w, r, map[string]any{"size": 1, "Metadata": []map[string]any{c.metadata()}})
		} else {
			notFound(w)
		}
	case get && collectionsPath.MatchString(r.URL.Path):
		sec := collectionsPath.FindStringSubmatch(r.URL.Path)[1]
		var md []map[string]any
		for _, c := range s.collections {
			if c.Section == sec {
				md = append(md, c.metadata())
			}
		}
		s.paged(w, r, map[string]any{"librarySectionID": number(sec), "viewGroup": "collection"}, md, start, size)
	case get && collItemsPath.MatchString(r.URL.Path):
		c := s.collection(collItemsPath.FindStringSubmatch(r.URL.Path)[1])
		if c == nil {
			notFound(w)
			return true
		}
		var md []map[string]any
		for _, k := range c.Items {
			if it, _ := s.find(k); it != nil {
				md = append(md, it.metadata())
			}
		}
		s.paged(w, r, map[string]any{"title1": c.Title}, md, start, size)
	case r.Method == http.MethodPost && r.URL.Path == "/library/collections":
		s.createCollection(w, r, q)
	case put && collItemsPath.MatchString(r.URL.Path):
		c := s.collection(collItemsPath.FindStringSubmatch(r.URL.Path)[1])
		keys, ok := s.uriKeys(q.Get("uri"))
		switch {
		case c == nil:
			notFound(w)
		case !ok:
			badRequest(w)
		default:
			for _, k := range keys {
				if !slices.Contains(c.Items, k) {
					c.Items = append(c.Items, k)
				}
			}
			s.json(w, r, map[string]any{"size": 1, "Metadata": []map[string]any{c.metadata()}})
		}
	case put && sectionAllPath.MatchString(r.URL.Path):
		s.editLabels(w, q, sectionAllPath.FindStringSubmatch(r.URL.Path)[1])
	default:
		return false
	}
	return true
}

func (s *Server) search(w http.ResponseWriter, r *http.Request, q url.Values) {
	text := strings.ToLower(strings.TrimSpace(q.Get("query")))
	if text == "" {
		badRequest(w)
		return
	}
	limit, err := strconv.Atoi(q.Get("limit"))
	if err != nil || limit <= 0 {
		limit = 3 // the spec's default per hub
	}
	byType := map[string][]map[string]any{}
	var order []string
	for _, sec := range s.sections {
		for _, list := range [][]Item{sec.Top, sec.Episodes} {
			for _, it := range list {
				if !strings.Contains(strings.ToLower(it.Title), text) {
					continue
				}
				if _, ok := byType[it.Type]; !ok {
					order = append(order, it.Type)
				}
				m := it.metadata()
				m["librarySectionID"], m["librarySectionTitle"] = number(sec.Key), sec.Title
				byType[it.Type] = append(byType[it.Type], m)
			}
		}
	}
	hubs := make([]map[string]any, 0, len(order))
	for _, typ := range order {
		md := byType[typ]
		more := len(md) > limit
		md = md[:min(len(md), limit)]
		hubs = append(hubs, map[string]any{"title": typ + "s", "type": typ, "hubIdentifier": typ, "context": "hub.search",
			"size": len(md), "more": more, "style": "shelf", "Metadata": md})
	}
	s.json(w, r, map[string]any{"size": len(hubs), "Hub": hubs})
}

// uriKeys reads the rating keys of a server://… metadata uri naming this server.
func (s *Server) uriKeys(uri string) ([]string, bool) {
	rest, ok := strings.CutPrefix(uri, "server://"+s.Machine+"/com.plexapp.plugins.library/library/metadata/")
	if !ok || rest == "" {
		return nil, false
	}
	keys := strings.Split(rest, ",")
	for _, k := range keys {
		if it, _ := s.find(k); it == nil {
			return nil, false
		}
	}
	return keys, true
}

func (s *Server) createCollection(w http.ResponseWriter, r *http.Request, q url.Values) {
	keys, ok := s.uriKeys(q.Get("uri"))
	sec, title := q.Get("sectionId"), q.Get("title")
	known := slices.ContainsFunc(s.sections, func(x Section) bool { return x.Key == sec })
	if !ok || !known || title == "" || q.Get("smart") != "0" || q.Get("type") == "" {
		badRequest(w)
		return
	}
	it, _ := s.find(keys[0])
	c := Collection{Key: strconv.Itoa(90000 + len(s.collections)), Section: sec, Title: title, Type: it.Type}
	for _, k := range keys {
		if !slices.Contains(c.Items, k) {
			c.Items = append(c.Items, k)
		}
	}
	s.collections = append(s.collections, c)
	s.json(w, r, map[string]any{"size": 1, "Metadata": []map[string]any{c.metadata()}})
}

// editLabels applies a section edit's label list to the items named by id.
func (s *Server) editLabels(w http.ResponseWriter, q url.Values, sec string) {
	ids := strings.Split(q.Get("id"), ",")
	if q.Get("id") == "" || q.Get("type") == "" {
		badRequest(w)
		return
	}
	var labels []string
	for i := 0; ; i++ {
		v, ok := q["label["+strconv.Itoa(i)+"].tag.tag"]
		if !ok {
			break
		}
		labels = append(labels, v[0])
	}
	var items []*Item
	for _, id := range ids {
		it, in := s.find(id)
		if it == nil || in.Key != sec {
			notFound(w)
			return
		}
		items = append(items, it)
	}
	for _, it := range items {
		it.Labels = slices.Clone(labels)
	}
	w.WriteHeader(http.StatusOK)
}

func (c Collection) metadata() map[string]any {
	return map[string]any{"ratingKey": c.Key, "key": "/library/collections/" + c.Key + "/children", "type": "collection",
		"title": c.Title, "subtype": c.Type, "smart": "0", "childCount": len(c.Items), "librarySectionID": number(c.Section),
		"addedAt": 1700000000, "updatedAt": 1700000001}
}

func notFound(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/html")
	w.WriteHeader(http.StatusNotFound)
	_, _ = w.Write([]byte("<html><head><title>Not Found</title></head><body><h1>404 Not Found</h1></body></html>"))
}

func badRequest(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/html")
	w.WriteHeader(http.StatusBadRequest)
	_, _ = w.Write([]byte("<html><head><title>Bad Request</title></head><body><h1>400 Bad Request</h1></body></html>"))
}
