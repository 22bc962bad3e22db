from chessrate.cli import main

main()
