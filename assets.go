package main

import "embed"

// The pages and browser assets are compiled into the binary, so the app is
// one self-contained file with nothing to install beside it. The embedding
// lives here because go:embed reaches only files below the package's folder.
//
//go:embed static templates
var webAssets embed.FS
