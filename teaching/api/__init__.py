"""Teaching's API endpoints, in the API's namespace beside trainer's (config.urls)."""
