package web

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"regexp"
	"strings"
)

// hostPattern is what a Host header may hold to be used as it is: a DNS
// name or bracketed IPv6 address, with an optional port. Anything else
// (quotes, spaces, semicolons, paths) is replaced by "localhost" before it
// reaches a page, a header or a PGN.
var hostPattern = regexp.MustCompile(`^([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(:[0-9]{1,5})?$`)

// hstsValue is sent on HTTPS responses only.
const hstsValue = "max-age=31536000"

// parsePublicOrigin validates Config.PublicOrigin: "http" or "https",
// a host as hostPattern allows, no path, query or fragment.
func parsePublicOrigin(v string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSuffix(v, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || !hostPattern.MatchString(u.Host) ||
		u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return nil, fmt.Errorf("web: public origin %q is not of the form https://host[:port]", v)
	}
	return &url.URL{Scheme: u.Scheme, Host: strings.ToLower(u.Host)}, nil
}

// isHTTPS reports whether the browser reached us over HTTPS: directly
// over TLS, through a proxy we trust (Config.TrustProxy) that says so in
// X-Forwarded-Proto, or because the configured public origin is https.
func (s *site) isHTTPS(r *http.Request) bool {
	if r.TLS != nil || (s.publicOrigin != nil && s.publicOrigin.Scheme == "https") {
		return true
	}
	if !s.cfg.TrustProxy {
		return false
	}
	first, _, _ := strings.Cut(r.Header.Get("X-Forwarded-Proto"), ",")
	return strings.EqualFold(strings.TrimSpace(first), "https")
}

// clientAddr is the caller's IP address, which the per-address limits
// (failed logins, registrations, new games) count by: the connection's,
// or behind a proxy we trust (Config.TrustProxy) the address that proxy
// saw, the last one in X-Forwarded-For (a client may write the others).
// Behind a proxy every connection comes from the proxy, so without the
// header one client's failures would count against everyone.
func (s *site) clientAddr(r *http.Request) string {
	if s.cfg.TrustProxy {
		fwd := r.Header.Values("X-Forwarded-For")
		if len(fwd) > 0 {
			hops := strings.Split(fwd[len(fwd)-1], ",")
			if ip, err := netip.ParseAddr(strings.TrimSpace(hops[len(hops)-1])); err == nil {
				return ip.Unmap().String()
			}
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// origin returns the scheme and host the browser sees: the configured
// public origin, or else the request's scheme and its Host when that looks
// like a host ("localhost" when not). Never the raw Host header.
func (s *site) origin(r *http.Request) (scheme, host string) {
	if s.publicOrigin != nil {
		return s.publicOrigin.Scheme, s.publicOrigin.Host
	}
	scheme = "http"
	if s.isHTTPS(r) {
		scheme = "https"
	}
	host = r.Host
	if !hostPattern.MatchString(host) {
		host = "localhost"
	}
	return scheme, host
}

// siteURL is the origin as a URL prefix, such as "https://example.org".
func (s *site) siteURL(r *http.Request) string {
	scheme, host := s.origin(r)
	return scheme + "://" + host
}

// wsURL is the WebSocket URL of path (which starts with a slash).
func (s *site) wsURL(r *http.Request, path string) string {
	scheme, host := s.origin(r)
	if scheme == "https" {
		return "wss://" + host + path
	}
	return "ws://" + host + path
}

// checkOrigin accepts a WebSocket upgrade or a form post only from a page
// of this site, scheme included (an http:// page may not open a socket to,
// or post a form to, an https server), or from non-browser clients, which
// send no Origin. "null" (a sandboxed or privacy-stripped page) is refused.
// For form posts SameSite=Lax already keeps the cookie off cross-site
// requests; this refuses them plainly.
func (s *site) checkOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	scheme, host := "http", r.Host
	if s.isHTTPS(r) {
		scheme = "https"
	}
	if s.publicOrigin != nil {
		scheme, host = s.publicOrigin.Scheme, s.publicOrigin.Host
	}
	return strings.EqualFold(u.Scheme, scheme) && strings.EqualFold(u.Host, host)
}

// securityHeaders sets the headers every response carries. Everything the
// app needs is served from here: no CDN, no fonts from elsewhere, and no
// inline script (the pages load their modules from /static/js). The policy
// makes an accidental external request fail loudly.
func (s *site) securityHeaders(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("X-Frame-Options", "DENY")
	_, host := s.origin(r)
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; media-src 'self' data: blob:; "+
		"style-src 'self' 'unsafe-inline'; script-src 'self'; font-src 'self' data:; "+
		"connect-src 'self' ws://"+host+" wss://"+host+"; frame-ancestors 'none'; base-uri 'self'; form-action 'self'")
	if s.isHTTPS(r) {
		h.Set("Strict-Transport-Security", hstsValue)
	}
}
