# Loads the cua-contract pytest plugin from this checkout (from an installed npm package, put
# node_modules/cua-contract/integrations/pytest on sys.path instead).
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "integrations", "pytest"))
pytest_plugins = ["cua_contract_pytest.plugin"]
