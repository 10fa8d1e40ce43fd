// Package tune holds everything that trains Knightwatch's evaluations from
// labelled positions:
//
//   - training data (data.go): TrainingPosition, a quiet position labelled
//     with the expected result from White's view and perhaps a search
//     score, read and written as "FEN;result[;score]" lines;
//   - where the positions come from: fast self-play games
//     (GenerateTrainingData, selfplay.go), the games of PGN files such as
//     the match records in bench/results (TrainingFromPGN, pgn.go, with
//     ReadPGNFile, pgnfile.go, the repository's one PGN file reader,
//     plain or gzipped), and relabelling with another UCI engine's short
//     search (ScorePositions, FitLabelScale and BlendLabels, label.go);
//   - the Texel tuner of the hand-written evaluation's weights (Texel and
//     WriteTunedGo, texel.go), which writes engine/tuned.go;
//   - the trainer of the neural network evaluation (NetworkSets and
//     Train, nnue.go), whose network the engine loads with its EvalFile
//     option;
//   - the one sigmoid that turns a score into an expected result and the
//     one fit of its scale (Sigmoid and FitScale, sigmoid.go).
//
// The engine exposes what the Texel tuner needs in engine/weights.go
// (the weights, a traced evaluation linear in them, a quiet-position test
// and the names of the terms); engine/nnue exposes Quantize and
// FlipFeature for the network trainer. The tuners change no weights of
// the engine while it runs: their results are files.
//
// Run them through the command line:
//
//	go run . tune gen   --games 100 --nodes 4000 --out selfplay.txt
//	go run . tune pgn   --in bench/results/level8-vs-sf2000-2s.pgn --lambda 0.5 --out pgn.txt
//	go run . tune label --in pgn.txt --engine /usr/games/stockfish --nodes 1000 --out labelled.txt
//	go run . tune texel --in selfplay.txt,pgn.txt --epochs 150 --write engine/tuned.go
//	go run . tune nnue  --in selfplay.txt --out net.nnue --epochs 20
//
// and 'go run . tune MODE -h' for each mode's flags.
package tune
