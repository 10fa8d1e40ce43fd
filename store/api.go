package store

// API is the store's facet for the Reconnaissance Chess server's HTTP API
// (package rbcapi): its accounts (users.go), its games and their
// invitations (apigames.go), and the ranked games' ratings (ratings.go).
// Get it from Store.API; it shares the Store's connections, hooks and
// writer.
type API struct{ s *Store }

// API returns the facet of the HTTP API's accounts, games and ratings.
func (s *Store) API() API { return API{s} }
