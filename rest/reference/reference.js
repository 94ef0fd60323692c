// The REST reference at /docs: Swagger UI (from the swagger-ui-dist package, served by this
// server) over the generated OpenAPI document. Nothing is fetched from anywhere else: the
// validator badge, which would send the document to validator.swagger.io, is off.
window.addEventListener('load', () => {
  window.ui = window.SwaggerUIBundle({
    url: '/api/v1/openapi.json',
    dom_id: '#reference',
    deepLinking: true,
    validatorUrl: null,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    displayRequestDuration: true,
    filter: true,
    tryItOutEnabled: false,
    persistAuthorization: false,
  });
});
