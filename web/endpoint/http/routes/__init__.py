"""The HTTP layer, one module per concept, all in one style: each module's `routes(services)`
returns a FastAPI `APIRouter` whose handlers take what they need from the `Services` given
(web/endpoint/http/services.py), and `create_app` only assembles them (web/endpoint/app.py).

The OpenAPI document is FastAPI's, made from these declarations (http/apidocs.py adds the error
shape). The purchase is also answered ahead of the middleware by `sales.PurchaseFastPath`, with
the same parsing as its declared route. Test mode's routes are its own (web/endpoint/testmode/).
"""
