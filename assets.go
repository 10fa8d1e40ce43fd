package main

import (
	"embed"
	"io/fs"
)

// The pages and browser assets are compiled into the binary, so the app is
// one self-contained file with nothing to install beside it.
//
//go:embed static templates
var embedded embed.FS

// assets returns the templates and static files rooted at their folders.
func assets() (templates, static fs.FS, err error) {
	if static, err = fs.Sub(embedded, "static"); err != nil {
		return nil, nil, err
	}
	templates, err = fs.Sub(embedded, "templates")
	return templates, static, err
}
