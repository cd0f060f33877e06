import sys

from diloti.cli import main

sys.exit(main())
